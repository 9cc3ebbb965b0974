"""Answers named by response models (serve/api/responses.py): the OpenAPI document shows each field of
the wallet and second-contract routes' answers inside the ``{code, msg, data}`` envelope (schemathesis, tests/fuzz,
checks live answers against it), and an answer built with a field the model does not name fails
where it is built."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from config.settings import Settings
from serve.api.responses import Code
from serve.api.routes.wallet import DepositOut, WalletOut
from serve.app import create_app
from serve.errors import envelope


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return create_app(Settings(env="test")).openapi()


def _answer(document: dict[str, Any], path: str) -> dict[str, Any]:
    """The ``data`` schema of a GET's 200 answer, references followed."""
    schemas = document["components"]["schemas"]

    def follow(schema: dict[str, Any]) -> dict[str, Any]:
        return schemas[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema

    body = follow(document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"])
    assert sorted(body["required"]) == ["code", "data", "msg"]
    data = follow(body["properties"]["data"])
    return follow(data["items"]) if data.get("type") == "array" else data


def test_the_document_shows_every_field_of_the_wallet_answers(document: dict[str, Any]) -> None:
    wallet = _answer(document, "/api/wallet/wallet")
    assert sorted(wallet["required"]) == sorted(
        ["id", "currency_protocol_id", "address", "memo", "chain_protocol", "token_address"]
    )
    page = _answer(document, "/api/wallet/deposits")
    assert sorted(page["required"]) == ["current_page", "data", "last_page", "per_page", "total"]
    chains = _answer(document, "/api/block_chain/currency_protocols")
    protocol = document["components"]["schemas"]["ProtocolOut"]
    assert "currency_protocols" in chains["required"] and {"deposit_open", "withdraw_open"} <= set(protocol["required"])


def test_a_field_the_model_does_not_name_fails_where_the_answer_is_built() -> None:
    fields = {"id": 1, "currency_protocol_id": 2, "address": "0xabc", "memo": "", "chain_protocol": {"code": "ERC20"},
              "token_address": ""}  # fmt: skip
    assert WalletOut(**fields).model_dump() == fields
    with pytest.raises(ValidationError):
        WalletOut(**{**fields, "adress": fields["address"]})
    with pytest.raises(ValidationError):
        DepositOut.model_validate({"id": 1})  # every field is required


def test_the_envelope_carries_models_as_json() -> None:
    wallet = WalletOut(id=1, currency_protocol_id=2, address="a", memo="", chain_protocol=Code(code="LTC"),
                       token_address="")  # fmt: skip
    assert envelope([wallet]).body == (
        b'{"code":1,"msg":"","data":[{"id":1,"currency_protocol_id":2,"address":"a","memo":"",'
        b'"chain_protocol":{"code":"LTC"},"token_address":""}]}'
    )


def test_the_document_shows_a_second_contract_as_every_answer_gives_it(document: dict[str, Any]) -> None:
    page = _answer(document, "/api/microtrade/lists")
    order = document["components"]["schemas"]["MicroOrderOut"]
    assert page["properties"]["data"]["items"]["$ref"].endswith("/MicroOrderOut")
    assert {"remain_milli_seconds", "entry_tick_id", "outcome_name", "payout", "symbol_name"} <= set(order["required"])
    stakes = _answer(document, "/api/microtrade/payable_currencies")
    assert {"micro_account", "micro_numbers", "min_number", "max_number", "max_open"} <= set(stakes["required"])
