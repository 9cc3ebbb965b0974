"""The Ray Serve deployment that hosts the FastAPI app under ``/api/``."""

from __future__ import annotations

from typing import Any, cast

from ray import serve
from ray.serve import Application, Deployment

from config.settings import Settings
from serve.app import create_app
from serve.wallet_middle import create_wallet_middle_app


@serve.deployment(
    # Request handling is I/O bound (database, Redis, actor calls): a replica reserves no CPU so
    # pair and wallet actors keep the machine's cores.
    ray_actor_options={"num_cpus": 0},
    max_ongoing_requests=200,
)
@serve.ingress()
class ApiIngress:
    """Stateless: each replica builds the app from the settings it was deployed with."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = Settings.model_validate(settings)

    def __serve_build_asgi_app__(self) -> Any:
        return create_app(self._settings)


def _deployment(cls: type) -> Deployment:
    """``cls`` itself, typed as the Serve deployment ``@serve.deployment`` made of it (mypy does not apply
    class decorators, so it still sees the plain class)."""
    return cast(Deployment, cls)


def build_app(settings: Settings) -> Application:
    return _deployment(ApiIngress).options(num_replicas=settings.api_replicas).bind(settings.model_dump(mode="json"))


@serve.deployment(ray_actor_options={"num_cpus": 0}, max_ongoing_requests=100)
@serve.ingress()
class WalletMiddle:
    """The walletMiddle service (spec §7) under ``/walletMiddle/``: its own application and replicas."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = Settings.model_validate(settings)

    def __serve_build_asgi_app__(self) -> Any:
        return create_wallet_middle_app(self._settings)


def build_wallet_middle(settings: Settings) -> Application:
    return _deployment(WalletMiddle).bind(settings.model_dump(mode="json"))
