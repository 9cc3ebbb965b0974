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
from serve.api.responses import Code, Envelope, Out, Paged
from serve.errors import envelope
from serve.i18n import N_, translate
from store import deposits
from store.chain.keys import KeysUnavailable, deposit_keys, family_of
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, ChainDeposit, Currency, CurrencyProtocol, DepositAddress, DepositStatus
from store.money import money

router = APIRouter(tags=["wallet"])


class WalletOut(Out):
    """A deposit address of spec §3."""

    id: int
    currency_protocol_id: int
    address: str
    memo: str
    chain_protocol: Code
    token_address: str


class ProtocolOut(Out):
    """A currency protocol of spec §3, with whether deposits and withdrawals on its chain are open here."""

    id: int
    currency_id: int
    token_address: str
    chain_protocol: Code
    uses_memo: int
    deposit_open: int
    withdraw_open: int


class DepositOut(Out):
    """A chain transfer to one of the user's addresses, with its state."""

    id: int
    currency: Code
    chain_protocol: Code
    tx_hash: str
    address: str
    memo: str
    amount: str
    confirmations: int
    status: int
    status_name: str
    created_at: str


class CurrencyChainsOut(Out):
    """A currency with its chains and its withdrawal fee and bounds."""

    id: int
    code: str
    open_recharge: int
    open_draw: int
    draw_rate: str
    draw_min: str
    draw_max: str
    currency_protocols: list[ProtocolOut]


log = logging.getLogger(__name__)

DEPOSIT_STATES = {
    DepositStatus.CONFIRMING: N_("Confirming"),
    DepositStatus.CREDITED: N_("Credited"),
    DepositStatus.BELOW_MINIMUM: N_("Below the minimum, not credited"),
    DepositStatus.DROPPED: N_("Dropped: its block left the chain"),
    DepositStatus.ABOVE_MAXIMUM: N_("Above the maximum, held for review"),
}


def protocol_public(p: CurrencyProtocol, settings: Settings) -> ProtocolOut:
    """A currency protocol of spec §3: id, token_address, chain_protocol.code; and whether deposits
    and withdrawals on its chain are open here (docs/decisions.md "Chains a deployment follows")."""
    return ProtocolOut(
        id=p.id,
        currency_id=p.currency_id,
        token_address=p.token_address,
        chain_protocol=Code(code=p.chain_protocol),
        uses_memo=int(p.uses_memo),
        deposit_open=int(p.chain_protocol in deposit_chains(settings)),
        withdraw_open=int(p.chain_protocol in withdraw_chains(settings)),
    )


def wallet_public(address: DepositAddress, p: CurrencyProtocol, token_address: str) -> WalletOut:
    """A wallet of spec §3: id, address, memo, chain_protocol.code, token_address."""
    return WalletOut(
        id=address.id,
        currency_protocol_id=p.id,
        address=address.address,
        memo=address.memo,
        chain_protocol=Code(code=p.chain_protocol),
        token_address=token_address,
    )


def watched_token(settings: Settings, currency: Currency, p: CurrencyProtocol) -> str:
    """The token contract deposits of ``currency`` on ``p`` are watched at: the one the chain's node
    settings name (the dev chain's own USDT in development), else the protocol's listed contract. A
    page that showed mainnet's contract beside a dev-chain address would send the user to the wrong token."""
    node = settings.nodes.get(p.chain_protocol)
    tokens = settings.trc20_contracts if p.chain_protocol == TRON_CHAIN else node.tokens if node else {}
    return tokens.get(currency.code, p.token_address)


@router.get("/wallet/wallet", response_model=Envelope[list[WalletOut]])
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


@router.get("/wallet/deposits", response_model=Envelope[Paged[DepositOut]])
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

    def shape(d: ChainDeposit) -> DepositOut:
        return DepositOut(
            id=d.id,
            currency=Code(code=d.currency.code),
            chain_protocol=Code(code=d.currency_protocol.chain_protocol),
            tx_hash=d.tx_hash,
            address=d.address,
            memo=d.memo,
            amount=money(d.amount),
            confirmations=d.confirmations,
            status=int(d.status),
            status_name=translate(DEPOSIT_STATES[DepositStatus(d.status)], lang),
            created_at=d.created_at.isoformat(),
        )

    return envelope(Paged[DepositOut](**await paginate(query, page, 15, shape)))


@router.get("/block_chain/currency_protocols", response_model=Envelope[list[CurrencyChainsOut]])
async def currency_protocols(svc: Svc) -> Any:
    """Every currency with the chains it moves on (for the bind-address and withdraw chain selectors)
    and its withdrawal fee and bounds, public for the fee page (``account/list`` needs a login)."""
    currencies = await Currency.all().order_by("sort", "id").prefetch_related("protocols")
    return envelope(
        [
            CurrencyChainsOut(
                id=c.id,
                code=c.code,
                open_recharge=int(c.open_recharge),
                open_draw=int(c.open_draw),
                draw_rate=money(c.draw_rate),
                draw_min=money(c.draw_min),
                draw_max=money(c.draw_max),
                currency_protocols=[
                    protocol_public(p, svc.settings) for p in sorted(c.protocols, key=lambda p: (p.sort, p.id))
                ],
            )
            for c in currencies
        ]
    )
