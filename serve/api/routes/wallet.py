"""Deposits: wallet/wallet (a user's address per chain), wallet/deposits (what arrived) and
block_chain/currency_protocols (the chains of every currency)."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query

from config.chains import TRON_CHAIN, deposit_chains, withdraw_chains
from config.settings import Settings
from serve.api.deps import CurrentUid, Lang, Svc
from serve.api.paging import paginate
from serve.errors import envelope
from serve.i18n import N_, translate
from store import deposits
from store.chain.keys import KeysUnavailable, deposit_keys, family_of
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, ChainDeposit, Currency, CurrencyProtocol, DepositAddress, DepositStatus
from store.money import money

router = APIRouter(tags=["wallet"])
log = logging.getLogger(__name__)

DEPOSIT_STATES = {
    DepositStatus.CONFIRMING: N_("Confirming"),
    DepositStatus.CREDITED: N_("Credited"),
    DepositStatus.BELOW_MINIMUM: N_("Below the minimum, not credited"),
    DepositStatus.DROPPED: N_("Dropped: its block left the chain"),
    DepositStatus.ABOVE_MAXIMUM: N_("Above the maximum, held for review"),
}


def protocol_public(p: CurrencyProtocol, settings: Settings) -> dict[str, Any]:
    """A currency protocol of spec §3: id, token_address, chain_protocol.code; and whether deposits
    and withdrawals on its chain are open here (docs/decisions.md "Chains a deployment follows")."""
    return {
        "id": p.id,
        "currency_id": p.currency_id,
        "token_address": p.token_address,
        "chain_protocol": {"code": p.chain_protocol},
        "uses_memo": int(p.uses_memo),
        "deposit_open": int(p.chain_protocol in deposit_chains(settings)),
        "withdraw_open": int(p.chain_protocol in withdraw_chains(settings)),
    }


def wallet_public(address: DepositAddress, p: CurrencyProtocol, token_address: str) -> dict[str, Any]:
    """A wallet of spec §3: id, address, memo, chain_protocol.code, token_address."""
    return {
        "id": address.id,
        "currency_protocol_id": p.id,
        "address": address.address,
        "memo": address.memo,
        "chain_protocol": {"code": p.chain_protocol},
        "token_address": token_address,
    }


def watched_token(settings: Settings, currency: Currency, p: CurrencyProtocol) -> str:
    """The token contract deposits of ``currency`` on ``p`` are watched at: the one the chain's node
    settings name (the dev chain's own USDT in development), else the protocol's listed contract. A
    page that showed mainnet's contract beside a dev-chain address would send the user to the wrong token."""
    node = settings.nodes.get(p.chain_protocol)
    tokens = settings.trc20_contracts if p.chain_protocol == TRON_CHAIN else node.tokens if node else {}
    return tokens.get(currency.code, p.token_address)


@router.get("/wallet/wallet")
async def wallet(uid: CurrentUid, svc: Svc, currency_id: Annotated[int, Query(ge=1, le=INT_MAX)]) -> Any:
    """The user's deposit address on every chain of a currency that a watcher follows here (derived,
    stable); a currency none of whose chains has an adapter yet, or none of whose chains is followed, is
    refused with a message saying so, never given a fake address or one nobody watches."""
    currency = await Currency.get_or_none(id=currency_id)
    if currency is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    protocols = await CurrencyProtocol.filter(currency_id=currency.id).order_by("sort", "id")
    supported = [p for p in protocols if family_of(p.chain_protocol) is not None]
    if not supported:
        raise DomainError(ErrorCode.CHAIN_NOT_SUPPORTED, currency=currency.code)
    if not currency.open_recharge:
        raise DomainError(ErrorCode.RECHARGE_CLOSED)
    followed = deposit_chains(svc.settings)
    supported = [p for p in supported if p.chain_protocol in followed]
    if not supported:
        raise DomainError(ErrorCode.DEPOSITS_SUSPENDED, currency=currency.code)
    try:
        keys = deposit_keys(svc.settings)
    except KeysUnavailable as exc:
        log.error("deposit keys: %s", exc)
        raise DomainError(ErrorCode.DEPOSIT_KEYS_UNAVAILABLE) from exc
    return envelope(
        [
            wallet_public(await deposits.address_for(keys, uid, p), p, watched_token(svc.settings, currency, p))
            for p in supported
        ]
    )


@router.get("/wallet/deposits")
async def deposit_list(
    uid: CurrentUid,
    lang: Lang,
    currency_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """Chain transfers to the user's addresses with their state (confirming, credited, below minimum)."""
    query = ChainDeposit.filter(user_id=uid)
    if currency_id is not None:
        query = query.filter(currency_id=currency_id)
    query = query.order_by("-id").prefetch_related("currency", "currency_protocol")

    def shape(d: ChainDeposit) -> dict[str, Any]:
        return {
            "id": d.id,
            "currency": {"code": d.currency.code},
            "chain_protocol": {"code": d.currency_protocol.chain_protocol},
            "tx_hash": d.tx_hash,
            "address": d.address,
            "memo": d.memo,
            "amount": money(d.amount),
            "confirmations": d.confirmations,
            "status": int(d.status),
            "status_name": translate(DEPOSIT_STATES[DepositStatus(d.status)], lang),
            "created_at": d.created_at.isoformat(),
        }

    return envelope(await paginate(query, page, 15, shape))


@router.get("/block_chain/currency_protocols")
async def currency_protocols(svc: Svc) -> Any:
    """Every currency with the chains it moves on (for the bind-address and withdraw chain selectors)
    and its withdrawal fee and bounds, public for the fee page (``account/list`` needs a login)."""
    currencies = await Currency.all().order_by("sort", "id").prefetch_related("protocols")
    return envelope(
        [
            {
                "id": c.id,
                "code": c.code,
                "open_recharge": int(c.open_recharge),
                "open_draw": int(c.open_draw),
                "draw_rate": money(c.draw_rate),
                "draw_min": money(c.draw_min),
                "draw_max": money(c.draw_max),
                "currency_protocols": [
                    protocol_public(p, svc.settings) for p in sorted(c.protocols, key=lambda p: (p.sort, p.id))
                ],
            }
            for c in currencies
        ]
    )
