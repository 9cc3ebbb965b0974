"""Answers named by response models (serve/api/responses.py): the OpenAPI document shows each field of
the wallet, second-contract, leveraged, P2P, spot, market and account routes' answers inside the
``{code, msg, data}`` envelope (schemathesis, tests/fuzz, checks live answers against it), each model
names exactly the wire's fields in the wire's order (a field renamed or dropped in a model fails here),
and an answer built with a field the model does not name fails where it is built (the builders on the
store and actor floors: tests/unit/test_answer_builders.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from config.settings import Settings
from serve.api import account_answers as account
from serve.api import lever_answers as lever
from serve.api import p2p_answers as p2p
from serve.api import spot_answers as spot
from serve.api.responses import Code, Out, Paged, checked
from serve.api.routes.wallet import DepositOut, WalletOut
from serve.app import create_app
from serve.errors import envelope


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return create_app(Settings(env="test")).openapi()


def _answer(document: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    """The ``data`` schema of a 200 answer, references followed (a list's: its items')."""
    schemas = document["components"]["schemas"]

    def follow(schema: dict[str, Any]) -> dict[str, Any]:
        return schemas[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema

    body = follow(document["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"])
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


# The wire's names of every answer's part, in the wire's order, as the spec and the web app read them.
WIRE: dict[type[Out], str] = {
    lever.LeverPositionOut: "id currency_match_id symbol type status share multiple number price origin_price "
    "target_price caution_money origin_caution_money frozen trade_fee overnight_money target_profit_price "
    "stop_loss_price update_price profits close_price close_reason open_tick_id close_tick_id time opened_at "
    "closed_at base_currency_id quote_currency_id base_currency_code quote_currency_code type_name status_name "
    "close_reason_name",
    lever.LeverShareOut: "value label",
    lever.LeverChoicesOut: "muit share",
    lever.LeverDealOut: "user_lever multiple my_transaction mark hazard_rate",
    lever.LeverDealAllOut: "order hazard_rate profits_all",
    lever.LeverClosedOut: "closed data",
    p2p.ListPage[p2p.MarketAdOut]: "list page total limit",
    p2p.P2PCurrencyOut: "id code decimals",
    p2p.P2PMethodOut: "code name",
    p2p.P2PConfigOut: "currencies fiats methods windows cancel_limit unpaid_max",
    p2p.AdOut: "id side taker_side currency_id currency fiat price min_fiat max_fiat max_now total stock methods "
    "window_min remarks status",
    p2p.AdMerchantOut: "uid nickname orders_30d completion_rate",
    p2p.MarketAdOut: "id side taker_side currency_id currency fiat price min_fiat max_fiat max_now total stock "
    "methods window_min remarks status merchant",
    p2p.ShopAdOut: "id side taker_side currency_id currency fiat price min_fiat max_fiat max_now total stock "
    "methods window_min remarks status in_orders sold",
    p2p.P2POrderItemOut: "id ad_id state side currency_id currency fiat price amount total pay_method buyer_id "
    "seller_id merchant_id created_ms deadline_ms ended_ms cancel_kind role remain_ms state_name",
    p2p.P2POrderDetailOut: "id ad_id state side currency_id currency fiat price amount total pay_method buyer_id "
    "seller_id merchant_id created_ms deadline_ms ended_ms cancel_kind role is_merchant pay_details counterparty "
    "remain_ms paid_ms proof appeal resolved_to actions events state_name pay_method_name",
    p2p.CounterpartyOut: "name nickname",
    p2p.AppealOut: "by reason images reply",
    p2p.ReplyOut: "reason images at_ms",
    p2p.P2PEventOut: "seq from_state to_state by at_ms note",
    p2p.LevelsOut: "mobile real_name advanced",
    p2p.MerchantInfoOut: "status nickname reject_reason is_seller levels orders_30d completion_rate methods "
    "status_name",
    spot.SpotOrderOut: "id currency_match_id symbol way kind price number transacted_amount transacted_volume status",
    spot.SymbolOut: "symbol",
    spot.OrderRowOut: "id currency_match_id currency_match symbol way way_name kind price number transacted_amount "
    "transacted_volume status status_name created_at updated_at",
    spot.OrderResultOut: "code msg data",
    spot.BatchOut: "results",
    spot.QuotationOut: "currency_match_id close change high low volume usd_price cny_price",
    spot.DepthLevelOut: "price amount index",
    spot.DepthOut: "seq in out",
    spot.TradeOut: "id price amount way timestamp time",
    spot.MarkTickOut: "id currency_match_id seq time price rule version prev_hash hash",
    spot.MarkInputsOut: "notional impact_bid impact_ask last raw rule",
    spot.DealOut: "quotation depth tx_completes mark mark_inputs",
    spot.BarOut: "time open high low close volume",
    spot.LogoOut: "code logo",
    spot.PairOut: "id name symbol base_currency_id quote_currency_id base_currency_code quote_currency_code "
    "base_currency open_change open_lever open_microtrade added price_decimals qty_decimals maker_fee taker_fee "
    "lever_point_rate lever_share_num lever_fee_rate max_price max_quantity min_notional price_band "
    "max_open_orders currency_quotation",
    spot.QuoteGroupOut: "id code name is_quote usd_price cny_price usd_live matches",
    account.AccountKindOut: "id name account_code",
    account.AccountCurrencyOut: "id code logo open_recharge open_draw draw_rate draw_min draw_max usd_price usd_live "
    "convert_rate is_recharge_account account_types currency_protocols",
    account.AccountOut: "id user_id currency_id currency_code account_type balance lock_balance convert_usd currency",
    account.AccountGroupOut: "account_code account_type is_recharge convert_usd accounts",
}


@pytest.mark.parametrize("model", list(WIRE), ids=lambda m: m.__name__)
def test_each_answer_names_the_wires_fields_in_its_order_every_one_required(model: type[Out]) -> None:
    schema = model.model_json_schema(mode="serialization")
    names = WIRE[model].split()
    assert list(schema["properties"]) == names
    assert schema["required"] == names and schema["additionalProperties"] is False


# (method, path) -> the model of ``data`` (a list's items).
ROUTES = {
    ("post", "/api/lever/deal"): "LeverDealOut",
    ("post", "/api/lever/dealall"): "LeverDealAllOut",
    ("post", "/api/lever/my_trade"): "Paged[LeverPositionOut]",
    ("post", "/api/lever/submit"): "LeverPositionOut",
    ("post", "/api/lever/cancel"): "LeverPositionOut",
    ("post", "/api/lever/close"): "LeverPositionOut",
    ("post", "/api/lever/setstop"): "LeverPositionOut",
    ("post", "/api/lever/batch_close"): "LeverClosedOut",
    ("get", "/api/legal/config"): "P2PConfigOut",
    ("get", "/api/legal/ads"): "ListPage[MarketAdOut]",
    ("get", "/api/legal/orders"): "ListPage[P2POrderItemOut]",
    ("get", "/api/legal/order/detail"): "P2POrderDetailOut",
    ("post", "/api/legal/order/create"): "P2POrderDetailOut",
    ("post", "/api/legal/order/paid"): "P2POrderDetailOut",
    ("post", "/api/legal/order/cancel"): "P2POrderDetailOut",
    ("post", "/api/legal/order/release"): "P2POrderDetailOut",
    ("post", "/api/legal/order/appeal"): "P2POrderDetailOut",
    ("post", "/api/legal/order/reply"): "P2POrderDetailOut",
    ("post", "/api/merchant/apply"): "MerchantInfoOut",
    ("get", "/api/merchant/info"): "MerchantInfoOut",
    ("get", "/api/shop/ads"): "ShopAdOut",
    ("post", "/api/shop/ad/save"): "AdOut",
    ("post", "/api/shop/ad/status"): "AdOut",
    ("post", "/api/shop/ad/close"): "AdOut",
    ("get", "/api/shop/orders"): "ListPage[P2POrderItemOut]",
    ("get", "/api/market/currency_matches"): "QuoteGroupOut",
    ("get", "/api/market/deal"): "DealOut",
    ("get", "/api/market/kline"): "BarOut",
    ("post", "/api/tx_in/add"): "SpotOrderOut",
    ("post", "/api/tx_out/add"): "SpotOrderOut",
    ("post", "/api/tx_in/cancel"): "SpotOrderOut",
    ("post", "/api/tx_out/cancel"): "SpotOrderOut",
    ("get", "/api/tx_in/list"): "Paged[OrderRowOut]",
    ("get", "/api/tx_out/list"): "Paged[OrderRowOut]",
    ("get", "/api/tx_history/list"): "Paged[OrderRowOut]",
    ("post", "/api/tx/batch_add"): "BatchOut",
    ("post", "/api/tx/batch_cancel"): "BatchOut",
    ("get", "/api/account/list"): "AccountGroupOut",
    ("get", "/api/account/detail"): "AccountOut",
}


def test_the_document_names_each_routes_answer(document: dict[str, Any]) -> None:
    named = {route: _answer(document, route[1], route[0])["title"] for route in ROUTES}
    assert named == ROUTES
    depth = document["components"]["schemas"]["DepthOut"]
    assert depth["required"] == ["seq", "in", "out"]  # the wire's names, not the attributes'


def test_checked_passes_the_dict_itself_and_refuses_a_renamed_or_retyped_field() -> None:
    order = {"id": 1, "currency_match_id": 2, "symbol": "BTC/USDT", "way": 1, "kind": 0, "price": "60000",
             "number": "0.1", "transacted_amount": "0", "transacted_volume": "0", "status": 0}  # fmt: skip
    assert checked(spot.SpotOrderOut, order) is order
    renamed = {("amount" if k == "number" else k): v for k, v in order.items()}
    for wrong in (renamed, {**order, "price": 60000}, {**order, "way": True}, {**order, "fee": "0"}):
        with pytest.raises(ValidationError):
            checked(spot.SpotOrderOut, wrong)
    bars = [{"time": 0, "open": "1", "high": "1", "low": "1", "close": "1", "volume": "0"}]
    assert checked(spot.BARS, bars) is bars
    with pytest.raises(ValidationError):
        checked(spot.BARS, [{**bars[0], "vol": "0"}])


def test_a_model_built_answer_goes_out_in_the_wires_order() -> None:
    page = Paged[lever.LeverShareOut](data=[lever.LeverShareOut(value=1, label="1")], total=1, per_page=10,
                                      current_page=1, last_page=1)  # fmt: skip
    assert envelope(page).body == (
        b'{"code":1,"msg":"","data":{"data":[{"value":1,"label":"1"}],"total":1,"per_page":10,"current_page":1,'
        b'"last_page":1}}'
    )
    depth = spot.DepthOut.model_validate({"seq": 3, "in": [], "out": []})
    assert envelope(depth).body == b'{"code":1,"msg":"","data":{"seq":3,"in":[],"out":[]}}'
