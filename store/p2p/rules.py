"""The P2P market's pure rules: constants, amounts, names and what each side may do in each state
(docs/decisions.md "Peer-to-peer market"). No I/O here."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from store.models import AdSide, P2PState

CURRENCIES = ("USDT", "BTC", "ETH")
FIATS = ("CNY", "USD")
METHODS = ("alipay", "wxpay", "bank")
WINDOWS = (10, 15, 20, 30, 45, 60, 90, 120)  # payment windows offered, minutes
DEFAULT_WINDOW = 15
CANCEL_LIMIT = 3  # a buyer's cancellations (and lapsed windows) in one UTC day before buying stops
# Orders a taker may have waiting for payment at once: the site setting of this key, an operator's
# (the console's site settings), this default when it is not set; from 1 to UNPAID_MAX_TOP.
UNPAID_SETTING, UNPAID_MAX, UNPAID_MAX_TOP = "p2p_unpaid_max", 2, 100
MAX_ADS = 20  # ads of one merchant that are not closed
FIAT_PLACES = 2
MIN_FIAT = Decimal(1)
REASON_MIN, REASON_MAX = 10, 500
MAX_IMAGES = 3
NICKNAME_RE = re.compile(r"^[A-Za-z0-9_-]{2,20}$")
UNPAID_TEXT = re.compile(r"\d{1,3}", re.ASCII)
CENT = Decimal("0.01")

BUYER, SELLER, SYSTEM, OPERATOR = "buyer", "seller", "system", "operator"
CANCEL_BUYER, CANCEL_TIMEOUT, CANCEL_APPEAL = "buyer", "timeout", "appeal"
COUNTED_CANCELS = (CANCEL_BUYER, CANCEL_TIMEOUT)  # what the daily limit counts


def unpaid_max(text: str | None) -> int | None:
    """The setting's value as a cap (a whole number from 1 to UNPAID_MAX_TOP), or None when it is not one."""
    text = (text or "").strip()
    if not UNPAID_TEXT.fullmatch(text) or not 1 <= int(text) <= UNPAID_MAX_TOP:
        return None
    return int(text)


def unit(places: int) -> Decimal:
    return Decimal(1).scaleb(-places)


def places_of(value: Decimal) -> int:
    """Decimal places a value is written with (``1.50`` has 2; trailing zeros are not significant)."""
    exponent = value.normalize().as_tuple().exponent
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


def amount_for_fiat(fiat: Decimal, price: Decimal, places: int) -> Decimal:
    """The coins ``fiat`` buys at ``price``: rounded down to the coin's ``places``."""
    return (fiat / price).quantize(unit(places), rounding=ROUND_DOWN)


def fiat_total(amount: Decimal, price: Decimal) -> Decimal:
    """What ``amount`` coins cost in fiat: ``amount x price`` rounded half up to cents."""
    return (amount * price).quantize(CENT, rounding=ROUND_HALF_UP)


def max_now(max_fiat: Decimal, stock: Decimal, price: Decimal) -> Decimal:
    """The largest order an ad takes now: its limit or what its stock is worth, whichever is less."""
    return min(max_fiat, (stock * price).quantize(CENT, rounding=ROUND_DOWN))


def taker_buys(side: int) -> bool:
    """On a sell ad the taker buys; on a buy ad the taker sells."""
    return side == AdSide.SELL


def parties(side: int, merchant: int, taker: int) -> tuple[int, int]:
    """(buyer, seller) of an order on an ad of ``side``."""
    return (taker, merchant) if taker_buys(side) else (merchant, taker)


def mask_name(name: str) -> str:
    """A real name as the counterparty sees it: every word but the last shortened to its initial
    (``Zhang Wei`` -> ``Z*** Wei``); a one-word name keeps its first character (``王小明`` -> ``王**``)."""
    words = name.split()
    if not words:
        return ""
    if len(words) == 1:
        word = words[0]
        return word[0] + "*" * max(len(word) - 1, 1)
    return " ".join([w[0] + "***" for w in words[:-1]] + [words[-1]])


def actions(state: int, role: str, now_ms: int, deadline_ms: int, can_reply: bool = False) -> list[str]:
    """What ``role`` (buyer or seller) may do to an order in ``state`` at ``now_ms``; ``can_reply``: this
    side did not appeal and has not answered the appeal yet."""
    if state == P2PState.APPEAL:
        return ["reply"] if can_reply else []
    if state == P2PState.UNPAID:
        return ["paid", "cancel"] if role == BUYER and now_ms < deadline_ms else []
    if state == P2PState.PAID:
        return ["release", "appeal"] if role == SELLER else ["appeal"]
    return []


def completion_rate(completed: int, ended: int) -> str:
    """Completed orders over ended ones, as a percent with one decimal ("100.0" when none ended)."""
    if ended == 0:
        return "100.0"
    return str((Decimal(completed) * 100 / ended).quantize(Decimal("0.1"), rounding=ROUND_DOWN))
