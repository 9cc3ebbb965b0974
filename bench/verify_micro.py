"""Check second contracts against the public API, with none of the server's code: anyone can run it.

For each contract id it reads ``microtrade/proof`` (the order's frozen terms and recorded outcome,
the ``anchor`` tick in force when it was accepted, and the ticks from there to past its end) and:

1. recomputes every tick's hash in the tick's own hash ``version`` (the price string as published):
   version 1 (ticks from before the rule was kept) SHA-256 of ``prev_hash|currency_match_id|seq|time|price``,
   version 2 SHA-256 of ``2|prev_hash|currency_match_id|seq|time|price|rule`` (``rule``: which mark rule
   made the tick); a tick of any other version fails. It checks the chain from the anchor through the
   ticks: consecutive seqs, rising times, each ``prev_hash`` the hash before it, every tick of the
   contract's pair;
2. reads the same window of the pair's public tick log (``market/ticks``) and checks the proof shows
   exactly the log's ticks there (none dropped, added or altered);
3. applies the rule itself: **entry** is the first tick after ``accepted_at`` (the one after the
   anchor), **end** = entry time + seconds, **exit** the last tick at or before the end; no tick
   within ``seconds`` of acceptance makes the contract **void**; up wins if exit > entry, down if exit
   < entry, equal is a **tie**; a win pays stake + profit - fee with profit = stake x ratio / 100
   rounded down and fee = profit x fee_rate / 100 rounded up (to ``--places``, the stake currency's
   decimals), a loss nothing, a tie or a void the stake back;
4. compares that with what the server recorded (outcome, entry and exit tick ids and prices, end
   time, payout, net profit, fee), and checks it was settled after its outcome could be known.

The server's own ``verdict`` and ``chained`` fields are ignored: the point is not to trust them.

    .venv/bin/python bench/verify_micro.py 5 6 7 [--host http://127.0.0.1:8000] [--places 6]

Prints ``OK``, ``FAIL`` (with the reason) or ``OPEN`` (not settled yet) per contract; exits 1 if any
failed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, InvalidOperation
from typing import Annotated, Any

import httpx
import typer

GENESIS = "0" * 64  # the prev_hash of a pair's first tick
UP, DOWN = 1, 2
CLOSED = 3  # the order's status once settled
LOG_PAGE = 1000  # market/ticks answers at most this many


class Failed(Exception):
    """The contract does not check out; the message says why."""


def tick_hash(prev_hash: str, pair_id: int, seq: int, time_ms: int, price: str, rule: str = "touch",
              version: int = 1) -> str:  # fmt: skip
    """The hash of a tick in hash ``version``. Raises Failed for a version this tool does not know."""
    if version == 1:
        text = f"{prev_hash}|{pair_id}|{seq}|{time_ms}|{price}"
    elif version == 2:
        text = f"2|{prev_hash}|{pair_id}|{seq}|{time_ms}|{price}|{rule}"
    else:
        raise Failed(f"tick seq {seq} has hash version {version}, which this tool does not know")
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Tick:
    id: int
    pair_id: int
    seq: int
    time: int
    price: str  # as published: the hash covers this text
    prev_hash: str
    hash: str
    rule: str = "touch"  # which mark rule made it (version 1 ticks: the touch rule, not hashed)
    version: int = 1

    @classmethod
    def of(cls, data: dict[str, Any]) -> Tick:
        try:
            return cls(int(data["id"]), int(data["currency_match_id"]), int(data["seq"]), int(data["time"]),
                       str(data["price"]), str(data["prev_hash"]), str(data["hash"]), str(data.get("rule", "touch")),
                       int(data.get("version", 1)))  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise Failed(f"a malformed tick: {data!r}") from exc

    @property
    def value(self) -> Decimal:
        return _decimal(self.price, f"tick {self.seq}'s price")

    def __str__(self) -> str:
        return f"{self.price} (seq {self.seq}, {self.time}, rule {self.rule})"


def _decimal(text: Any, what: str) -> Decimal:
    try:
        value = Decimal(str(text))
    except InvalidOperation as exc:
        raise Failed(f"{what} is not a number: {text!r}") from exc
    if not value.is_finite():
        raise Failed(f"{what} is not a number: {text!r}")
    return value


def _text(value: Any) -> str:
    """A value for a message: a number as its plain digits (18, not 18.000000)."""
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return "0" if text == "-0" else text
    return str(value)


# -- 1. the hash chain ---------------------------------------------------------------------------------


def check_chain(pair_id: int, accepted_at: int, anchor: Tick | None, ticks: list[Tick]) -> None:
    """The anchor and the ticks are one unbroken chain of the pair's log, the anchor the tick in force at
    acceptance and the first tick after it stamped after acceptance."""
    chain = ([anchor] if anchor else []) + ticks
    previous: Tick | None = None
    for tick in chain:
        if tick.pair_id != pair_id:
            raise Failed(f"tick seq {tick.seq} belongs to pair {tick.pair_id}, not {pair_id}")
        if tick.hash != tick_hash(tick.prev_hash, tick.pair_id, tick.seq, tick.time, tick.price, tick.rule,
                                  tick.version):  # fmt: skip
            raise Failed(f"tick seq {tick.seq}: its hash does not match its facts")
        if previous is not None:
            if tick.seq != previous.seq + 1:
                raise Failed(f"the chain jumps from seq {previous.seq} to {tick.seq}")
            if tick.time <= previous.time:
                raise Failed(f"tick seq {tick.seq} is not later than seq {previous.seq}")
            if tick.prev_hash != previous.hash:
                raise Failed(f"tick seq {tick.seq} does not link to seq {previous.seq}'s hash")
        previous = tick
    if anchor is not None and anchor.time > accepted_at:
        raise Failed(f"the anchor (seq {anchor.seq}) was stamped after the order was accepted")
    if anchor is None and ticks and (ticks[0].seq != 1 or ticks[0].prev_hash != GENESIS):
        raise Failed(f"no anchor, but the first tick (seq {ticks[0].seq}) is not the start of the log")
    if ticks and ticks[0].time <= accepted_at:
        raise Failed(f"tick seq {ticks[0].seq}, at or before acceptance, is not the anchor")


# -- 2. the public log ---------------------------------------------------------------------------------


def check_log(proof_ticks: list[Tick], log_ticks: list[Tick], upto: int) -> None:
    """The proof shows exactly the log's ticks up to ``upto`` (``log_ticks``: the log from the anchor's
    time, or from the start, to ``upto``)."""
    shown = [t for t in proof_ticks if t.time <= upto]
    if shown == log_ticks:
        return
    shown_seqs = {t.seq: t for t in shown}
    for tick in log_ticks:
        if tick.seq not in shown_seqs:
            raise Failed(f"the log has tick seq {tick.seq} at {tick.time} that the proof leaves out")
        if shown_seqs[tick.seq] != tick:
            raise Failed(f"tick seq {tick.seq} differs between the proof and the log")
    raise Failed("the proof shows ticks up to the end that the log does not have")


# -- 3. the rule ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    outcome: str  # win, loss, tie or void
    entry: Tick | None
    exit: Tick | None
    decided_at: int  # the end, or for a void the entry deadline: nothing can be settled before
    payout: Decimal
    fact_profits: Decimal
    fee: Decimal


def outcome_of(order: dict[str, Any], anchor: Tick | None, ticks: list[Tick], places: int) -> Expected:
    """What the contract's terms and the ticks decide, by the published rule."""
    accepted, window = int(order["accepted_at"]), int(order["seconds"]) * 1000
    stake = _decimal(order["number"], "the stake")
    entry = next((t for t in ticks if t.time > accepted), None)
    if entry is not None and entry.seq != (anchor.seq + 1 if anchor else 1):
        raise Failed(f"the entry (seq {entry.seq}) is not the tick after the anchor")
    if entry is None or entry.time > accepted + window:
        return Expected("void", None, None, accepted + window, stake, Decimal(0), Decimal(0))
    end = entry.time + window
    exit_ = [t for t in ticks if t.time <= end][-1]
    if exit_.value == entry.value:
        return Expected("tie", entry, exit_, end, stake, Decimal(0), Decimal(0))
    if (exit_.value > entry.value) != (int(order["type"]) == UP):
        return Expected("loss", entry, exit_, end, Decimal(0), -stake, Decimal(0))
    step = Decimal(1).scaleb(-places)
    profit = (stake * _decimal(order["profit_ratio"], "the ratio") / 100).quantize(step, rounding=ROUND_FLOOR)
    fee = (profit * _decimal(order["fee_rate"], "the fee rate") / 100).quantize(step, rounding=ROUND_CEILING)
    fee = min(fee, profit)  # a fee never takes more than the profit, whatever the rate
    return Expected("win", entry, exit_, end, stake + profit - fee, profit - fee, fee)


# -- 4. against the record -----------------------------------------------------------------------------


def compare(order: dict[str, Any], found: Expected) -> None:
    """What the server recorded is what the rule gives."""

    def amount(name: str) -> Decimal | None:
        return None if order.get(name) is None else _decimal(order[name], name)

    entry, exit_ = found.entry, found.exit
    pairs = [
        ("outcome", order.get("outcome"), found.outcome),
        ("entry_tick_id", order.get("entry_tick_id"), entry.id if entry else None),
        ("exit_tick_id", order.get("exit_tick_id"), exit_.id if exit_ else None),
        ("open_price", amount("open_price"), entry.value if entry else None),
        ("end_price", amount("end_price"), exit_.value if exit_ else None),
        ("end_at", order.get("end_at"), found.decided_at if entry else None),
        ("payout", amount("payout"), found.payout),
        ("fact_profits", amount("fact_profits"), found.fact_profits),
        ("fee", amount("fee"), found.fee),
    ]
    wrong = [f"{name} {_text(recorded)} (the rule gives {_text(expected)})" for name, recorded, expected in pairs
             if recorded != expected]  # fmt: skip
    if wrong:
        raise Failed("recorded " + "; ".join(wrong))
    settled = order.get("settled_at")
    if settled is None or int(settled) <= found.decided_at:
        raise Failed(f"settled at {settled}, before its outcome was known at {found.decided_at}")


def verify(proof: dict[str, Any], log: list[Tick], places: int) -> Expected:
    """Steps 1 to 4 on a settled contract's proof and the log of its window (``window_of``)."""
    order = proof["order"]
    anchor = Tick.of(proof["anchor"]) if proof.get("anchor") else None
    ticks = [Tick.of(t) for t in proof.get("ticks") or []]
    check_chain(int(order["match_id"]), int(order["accepted_at"]), anchor, ticks)
    found = outcome_of(order, anchor, ticks, places)
    check_log(([anchor] if anchor else []) + ticks, log, found.decided_at)
    compare(order, found)
    return found


def window_of(proof: dict[str, Any]) -> tuple[int, int]:
    """The stretch of the log a proof must match: from the anchor (or the start) to the decision time
    (the end, or the entry deadline while no tick came: the latest it can be; ``check_log`` cuts)."""
    order = proof["order"]
    start = int(proof["anchor"]["time"]) if proof.get("anchor") else 0
    accepted, window = int(order["accepted_at"]), int(order["seconds"]) * 1000
    first = next((int(t["time"]) for t in proof.get("ticks") or [] if int(t["time"]) > accepted), None)
    entry_at = first if first is not None and first <= accepted + window else None
    return start, (entry_at + window if entry_at is not None else accepted + window)


# -- the API -------------------------------------------------------------------------------------------


def _data(answer: httpx.Response, what: str) -> Any:
    try:
        body = answer.json()
    except ValueError as exc:
        raise Failed(f"{what}: HTTP {answer.status_code}, not JSON") from exc
    if body.get("code") != 1:
        raise Failed(f"{what}: HTTP {answer.status_code}: {body.get('msg')}")
    return body["data"]


def read_log(api: httpx.Client, pair_id: int, start: int, end: int) -> list[Tick]:
    """The pair's public tick log with ``start <= time <= end``, page by page."""
    found: list[Tick] = []
    while True:
        params = {"currency_match_id": pair_id, "from": start, "to": end, "limit": LOG_PAGE}
        page = [Tick.of(t) for t in _data(api.get("market/ticks", params=params), "market/ticks")["ticks"]]
        found += page
        if len(page) < LOG_PAGE:
            return found
        start = page[-1].time + 1


def check_one(api: httpx.Client, order_id: int, places: int) -> tuple[str, str]:
    """("OK" | "FAIL" | "OPEN", what was found)."""
    try:
        proof = _data(api.get("microtrade/proof", params={"id": order_id}), "microtrade/proof")
        order = proof["order"]
        if int(order["status"]) != CLOSED:
            return "OPEN", f"not settled yet (ends at {order.get('end_at') or 'its entry + ' + str(order['seconds'])})"
        start, end = window_of(proof)
        found = verify(proof, read_log(api, int(order["match_id"]), start, end), places)
    except Failed as exc:
        return "FAIL", str(exc)
    except httpx.HTTPError as exc:
        return "FAIL", f"the API did not answer: {exc!r}"
    side = "up" if int(order["type"]) == UP else "down"
    head = f"{order.get('symbol_name')} {side} {order['number']} for {order['seconds']} s: {found.outcome}"
    if found.entry is None:
        return "OK", f"{head}, no tick within {order['seconds']} s of acceptance, refunded"
    return "OK", f"{head}, entry {found.entry}, exit {found.exit}, payout {order['payout']}"


def main(
    ids: Annotated[list[int], typer.Argument(help="contract ids (microtrade/lists shows yours)")],
    host: Annotated[str, typer.Option(help="the exchange's address")] = "http://127.0.0.1:8000",
    places: Annotated[int, typer.Option(min=0, max=18, help="the stake currency's decimals (USDT: 6)")] = 6,
) -> None:
    """Recompute each contract's outcome from the public tick log and compare it with the record."""
    failed = 0
    with httpx.Client(base_url=f"{host.rstrip('/')}/api/", timeout=30) as api:
        for order_id in ids:
            verdict, detail = check_one(api, order_id, places)
            failed += verdict == "FAIL"
            typer.echo(f"{verdict}\t{order_id}\t{detail}")
    if failed:
        raise typer.Exit(1)


if __name__ == "__main__":
    typer.run(main)
