"""Reaching the Ray that ``exchange up`` runs on, for the operator commands that talk to actors."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from config.settings import get_settings

T = TypeVar("T")
AddressOption = Annotated[
    str | None,
    typer.Option("--address", help="the Ray cluster's address (default: RAY_ADDRESS, else the running `exchange up`)"),
]


def on_cluster(address: str | None, work: Callable[[], T]) -> T:
    """Connect to the Ray that `exchange up` runs on, run ``work``, disconnect."""
    import ray

    from serve.ray_node import join_ray, ray_address_file

    settings = get_settings()
    found = address or settings.ray_address
    if not found and ray_address_file(settings).exists():
        found = ray_address_file(settings).read_text().strip()
    if not found:
        typer.echo(f"error: no running exchange found (no {ray_address_file(settings)}); give --address", err=True)
        raise typer.Exit(1)
    try:
        join_ray(found, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        typer.echo(f"error: cannot reach the Ray cluster at {found}: {exc}", err=True)
        raise typer.Exit(1) from exc
    try:
        return work()
    finally:
        ray.shutdown()


def named_actor(name: str, missing: str) -> Any:
    """The actor called ``name`` on the cluster; exit 1 saying ``missing`` when there is none."""
    import ray

    try:
        return ray.get_actor(name)
    except ValueError as exc:
        typer.echo(f"error: {missing}", err=True)
        raise typer.Exit(1) from exc
