from __future__ import annotations

import os

import pytest
from pydantic import ValidationError

from config.settings import Settings
from tests.utils.keys import MAINNET_XPUBS, PRODUCTION_SENDERS


def test_embedded_defaults_need_no_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "EXCHANGE_DATABASE_URL", "EXCHANGE_REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(data_dir="/tmp/x")
    assert settings.db_url == "sqlite:///tmp/x/exchange.sqlite3?busy_timeout=10000"
    assert settings.uses_embedded_redis
    assert (settings.http_port, settings.ws_port) == (8000, 8001)


def test_plain_and_prefixed_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@db:5432/x")
    monkeypatch.setenv("EXCHANGE_HTTP_PORT", "9000")
    monkeypatch.setenv("WS_PORT", "9001")
    settings = Settings()
    assert settings.db_url == "postgres://postgres@db:5432/x"
    assert (settings.http_port, settings.ws_port) == (9000, 9001)


def test_production_refuses_development_secrets() -> None:
    with pytest.raises(ValidationError, match="EXCHANGE_SECRET_KEY"):
        Settings(env="production")
    Settings(
        env="production", secret_key="s" * 32, wallet_middle_salt="t" * 32, xpubs=MAINNET_XPUBS, **PRODUCTION_SENDERS
    )


def test_production_refuses_to_start_where_a_code_would_only_reach_a_log() -> None:
    ready = {"secret_key": "s" * 32, "wallet_middle_salt": "t" * 32, "xpubs": MAINNET_XPUBS, **PRODUCTION_SENDERS}
    for missing, message in (
        ({"sms_providers": ["log"]}, "production sends SMS"),
        ({"smtp_host": None}, "EXCHANGE_SMTP_HOST"),
    ):
        with pytest.raises(ValidationError, match=message):
            Settings(env="production", **{**ready, **missing})


def test_an_ingress_with_replica_ports_needs_a_host_the_node_ip_reaches() -> None:
    """HAProxy and direct ingress reach each API replica at its node's IP: a loopback bind is refused
    with the reason, not started and silently served by the fallback proxy."""
    from typing import get_args

    from serve.ingress import INGRESS_ENV

    assert set(INGRESS_ENV) == set(get_args(Settings.model_fields["serve_ingress"].annotation))
    for mode in ("direct", "haproxy"):
        with pytest.raises(ValidationError, match="needs HTTP_HOST on the node's own interface"):
            Settings(serve_ingress=mode)
        assert Settings(serve_ingress=mode, http_host="0.0.0.0").serve_ingress == mode
    assert Settings(serve_ingress="throughput").http_host == "127.0.0.1"
    assert INGRESS_ENV["haproxy"]["RAY_SERVE_ENABLE_HA_PROXY"] == "1"
    assert INGRESS_ENV["proxy"] == {}


def test_every_ingress_mode_hands_serve_the_body_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Serve's HTTP servers (its proxies, the replicas' own ports) build the body cap from their
    environment: each mode puts the proxy callback and the settings' two limits there."""
    from ray.serve._private.utils import call_function_from_import_path

    from serve.body_limit import BodyLimit, limit_environment
    from serve.ingress import INGRESS_ENV, ingress_environment

    settings = Settings(request_max_bytes=40_000, upload_max_bytes=3_000_000, http_host="0.0.0.0")
    # ingress_environment writes to os.environ: every name it may write goes back as it was afterwards
    written = {name for env in INGRESS_ENV.values() for name in env} | set(limit_environment(settings))
    for name in written:  # recorded now, an absent one too (delenv alone forgets those): undo restores each
        monkeypatch.setenv(name, os.environ.get(name, ""))
    for mode in INGRESS_ENV:
        for name in written:
            monkeypatch.delenv(name, raising=False)
        given = ingress_environment(settings.model_copy(update={"serve_ingress": mode}))
        assert given["EXCHANGE_REQUEST_MAX_BYTES"] == "40000" and given["EXCHANGE_UPLOAD_MAX_BYTES"] == "3000000"
        (middleware,) = call_function_from_import_path(given["RAY_SERVE_HTTP_PROXY_CALLBACK_IMPORT_PATH"])
        assert middleware.cls is BodyLimit
        assert middleware.kwargs["limits"].for_path("/api/user/login")[0] == 40_000
        assert middleware.kwargs["limits"].for_path("/api/common/image_upload")[0] == 3_000_000 + 64 * 1024


def test_ports_are_checked() -> None:
    with pytest.raises(ValidationError):
        Settings(http_port=70000)


def test_domain_errors_survive_pickling_with_code_and_params() -> None:
    import pickle

    from store.errors import DomainError, ErrorCode

    again = pickle.loads(pickle.dumps(DomainError(ErrorCode.PRICE_PRECISION, places=4)))
    assert isinstance(again, DomainError) and again.code is ErrorCode.PRICE_PRECISION and again.params == {"places": 4}


def test_passwords_hash_at_the_standard_cost_outside_tests_and_never_below_it_in_production() -> None:
    production = {
        "env": "production",
        "secret_key": "s" * 32,
        "wallet_middle_salt": "t" * 32,
        "xpubs": MAINNET_XPUBS,
        **PRODUCTION_SENDERS,
    }
    assert Settings(**production).password_hash_profile == "standard"
    assert Settings(env="development").password_hash_profile == "standard"
    assert Settings(env="test").password_hash_profile == "minimal"
    assert Settings(env="test", password_hash_cost="standard").password_hash_profile == "standard"
    with pytest.raises(ValidationError, match="PASSWORD_HASH_COST"):
        Settings(**production, password_hash_cost="minimal")


def test_each_process_names_and_bounds_its_postgresql_pool() -> None:
    from store.db import tortoise_config

    settings = Settings(database_url="postgres://postgres@db:5432/x", db_pool_max=3, db_idle_seconds=12)
    credentials = tortoise_config(settings, "pair 7")["connections"]["default"]["credentials"]
    assert (credentials["maxsize"], credentials["max_inactive_connection_lifetime"]) == (3, 12.0)
    assert credentials["application_name"] == "exchange pair 7"
    assert tortoise_config(settings)["connections"]["default"]["credentials"]["application_name"] == "exchange"
    # What the operator put in the URL wins; a long or non-ASCII role still fits PostgreSQL's 63 bytes.
    own = Settings(database_url="postgres://postgres@db:5432/x?maxsize=2&application_name=mine")
    credentials = tortoise_config(own, "pair 7")["connections"]["default"]["credentials"]
    assert (int(credentials["maxsize"]), credentials["application_name"]) == (2, "mine")
    name = tortoise_config(settings, "chain watcher " + "é" * 80)["connections"]["default"]["credentials"]
    assert len(name["application_name"]) == 63 and name["application_name"].isascii()
    # SQLite: one file, no pool to bound.
    assert isinstance(tortoise_config(Settings(database_url="sqlite:///tmp/x.sqlite3"))["connections"]["default"], str)
