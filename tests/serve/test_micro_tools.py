"""The operator's and the public's tools for second contracts: `exchange micro stats` (run as an operator
would, against the session's database) and bench/verify_micro.py, whose independent rule must agree
with the server's (``store.micro.settle``) and catch a proof or a record that does not."""

from __future__ import annotations

import copy
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from actors.pair.marks import GENESIS, Tick, tick_hash
from bench import verify_micro
from config.settings import Settings
from serve.commands.micro import theoretical_return
from store import users
from store.micro import settle as rule
from store.models import HouseLedger, MicroOrder, MicroStatus
from store.money import money
from tests.utils.cli import exchange_ok

# -- exchange micro stats ------------------------------------------------------------------------------

SECONDS = 7001  # a duration no pair offers, so the session's other contracts are not in these rows
BASE_ID = 9_100_000_000


async def _contract(n: int, uid: int, outcome: str, stake: str, payout: str, house: dict[str, str]) -> None:
    status = MicroStatus.OPEN if outcome == "" else MicroStatus.CLOSED
    await MicroOrder.create(id=BASE_ID + n, user_id=uid, currency_match_id=1, currency_id=1, type=rule.UP,
                            seconds=SECONDS, number=Decimal(stake), profit_ratio=Decimal(80), fee_rate=Decimal(10),
                            status=status, accepted_ms=1, outcome=outcome, payout=Decimal(payout))  # fmt: skip
    for kind, amount in house.items():
        await HouseLedger.create(kind=kind, currency_id=1, amount=Decimal(amount), ref=f"m{BASE_ID + n}:{kind}",
                                 user_id=uid, position_id=BASE_ID + n)  # fmt: skip


async def test_stats_count_outcomes_returns_and_the_house_pnl(settings: Settings, db: None) -> None:
    user = await users.create_user(kind="email", account="micro-stats@example.com", password_hash="x", area=None,
                                   parent=None)  # fmt: skip
    # alice wins 10 at 80 % (8 profit, fee 10 % of it rounded up: 1), loses 10, wins 100 (80, fee 8),
    # ties 5 and has 5 voided; 7 still open
    await _contract(1, user.id, "win", "10", "17", {"micro_pnl": "-8", "micro_fee": "1"})
    await _contract(2, user.id, "loss", "10", "0", {"micro_pnl": "10"})
    await _contract(3, user.id, "win", "100", "172", {"micro_pnl": "-80", "micro_fee": "8"})
    await _contract(4, user.id, "tie", "5", "5", {})
    await _contract(5, user.id, "void", "5", "5", {})
    await _contract(6, user.id, "", "7", "0", {})

    rows = [line.split("\t") for line in exchange_ok(settings, "micro", "stats").splitlines()]
    assert rows[0][:4] == ["seconds", "pair", "currency", "settled"]
    (ours,) = [r for r in rows if r[0] == str(SECONDS)]
    named = dict(zip(rows[0], ours, strict=True))
    assert named == {
        "seconds": str(SECONDS), "pair": "all", "currency": "USDT", "settled": "5", "win": "2", "loss": "1",
        "tie": "1", "void": "1", "win rate": "66.67 %", "return (theory)": "-",  # no pair offers 7001 s
        "return (realised)": "153.08 %",  # 199 paid for 130 staked
        "house P&L": "-69", "open": "1", "open stake": "7",
    }  # fmt: skip

    by_pair = [line.split("\t") for line in exchange_ok(settings, "micro", "stats", "--by-pair").splitlines()]
    (ours,) = [r for r in by_pair if r[0] == str(SECONDS)]
    assert ours[1:4] == ["BTC/USDT", "USDT", "5"]
    theory = {r[1]: r[9] for r in by_pair if r[0] == "30"}
    assert all(value == "90.00 %" for value in theory.values())  # the seed's 30 s at 80 %, no fee


def test_theoretical_return_is_a_fair_coin_on_the_net_profit() -> None:
    assert theoretical_return(Decimal(80), Decimal(0)) == Decimal("0.9")
    assert theoretical_return(Decimal(80), Decimal(10)) == Decimal("0.86")  # 80 % less a tenth of it
    assert theoretical_return(Decimal(100), Decimal(0)) == 1  # an even-money bet


# -- bench/verify_micro.py -----------------------------------------------------------------------------

PAIR = 7
T0 = 1_700_000_000_000


def _log(prices: list[str], gaps: dict[int, int] | None = None, new_from: int = 4) -> list[Tick]:
    """A pair's tick log from seq 1: a tick a second (``gaps``: seq -> ms before it instead), in hash
    version 1 (rule ``touch``, as written before issue 27) until seq ``new_from``, version 2 after."""
    found: list[Tick] = []
    prev, at = GENESIS, T0
    for seq, text in enumerate(prices, start=1):
        at += (gaps or {}).get(seq, 1000)
        price = Decimal(text)
        rule_, version = ("touch", 1) if seq < new_from else ("impact" if seq % 2 else "thin", 2)
        found.append(Tick(PAIR, seq, at, price, prev, tick_hash(prev, PAIR, seq, at, price, rule_, version), rule_,
                          version))  # fmt: skip
        prev = found[-1].hash
    return found


def _settled(log: list[Tick], accepted: int, seconds: int, side: int, stake: str = "10",
             fee_rate: str = "0") -> tuple[dict[str, Any], list[dict[str, Any]]]:  # fmt: skip
    """The proof the server gives of a contract it settled by its own rule, and the public log."""
    terms = rule.Terms(side, accepted, seconds, Decimal(stake), Decimal(80), Decimal(fee_rate), 6)
    found = rule.settle(terms, [rule.TickView(t.id, t.seq, t.time_ms, t.price) for t in log])
    decided = rule.decided_by(terms, [rule.TickView(t.id, t.seq, t.time_ms, t.price) for t in log])
    order = {
        "id": 1, "match_id": PAIR, "symbol_name": "X/USDT", "seconds": seconds, "number": stake, "type": side,
        "status": 3, "profit_ratio": "80", "fee_rate": fee_rate, "accepted_at": accepted, "outcome": found.outcome,
        "open_price": money(found.entry.price) if found.entry else None,
        "end_price": money(found.exit.price) if found.exit else None,
        "entry_tick_id": found.entry.id if found.entry else None, "exit_tick_id": found.exit.id if found.exit else None,
        "end_at": found.entry.time_ms + seconds * 1000 if found.entry else None,
        "payout": money(found.payout), "fact_profits": money(found.fact_profits), "fee": money(found.fee),
        "settled_at": decided + 40,
    }  # fmt: skip
    before = [t for t in log if t.time_ms <= accepted]
    anchor = before[-1] if before else None
    after = [t for t in log if t.time_ms > accepted]
    shown = [t for i, t in enumerate(after) if i == 0 or after[i - 1].time_ms <= decided]
    proof = {"order": order, "anchor": anchor.public() if anchor else None, "ticks": [t.public() for t in shown]}
    return proof, [t.public() for t in log]


def _verify(proof: dict[str, Any], log: list[dict[str, Any]]) -> verify_micro.Expected:
    start, end = verify_micro.window_of(proof)
    window = [verify_micro.Tick.of(t) for t in log if start <= t["time"] <= end]
    return verify_micro.verify(proof, window, 6)


UPS = ["100", "101", "102", "101.5", "103", "99", "100", "104"]


@pytest.mark.parametrize(
    ("prices", "gaps", "accepted", "side", "fee_rate", "outcome"),
    [
        (UPS, None, T0 + 1500, rule.UP, "0", "win"),  # entry seq 2 (101), end +3 s: exit seq 5 (103)
        (UPS, None, T0 + 1500, rule.DOWN, "0", "loss"),
        (UPS, None, T0 + 1500, rule.UP, "12.3456789", "win"),  # a fee rounded up to the micro-unit
        (["100", "101", "102", "101"], None, T0 + 1500, rule.UP, "0", "tie"),  # 101 at the entry and the end
        (["100", "101", "102"], {2: 5000}, T0 + 1500, rule.UP, "0", "void"),  # no tick within 3 s
        (UPS, None, T0 - 500, rule.UP, "0", "win"),  # accepted before the log began: no anchor
    ],
)
def test_verifier_agrees_with_the_server_rule(prices: list[str], gaps: dict[int, int] | None, accepted: int,
                                              side: int, fee_rate: str, outcome: str) -> None:  # fmt: skip
    proof, log = _settled(_log(prices, gaps), accepted, 3, side, fee_rate=fee_rate)
    found = _verify(proof, log)
    assert found.outcome == outcome == proof["order"]["outcome"]
    assert found.payout == Decimal(proof["order"]["payout"])


def test_verifier_hashes_as_the_log_does() -> None:
    old, new = _log(["68211.0361", "68211.5"], new_from=2)
    assert verify_micro.tick_hash(old.prev_hash, PAIR, old.seq, old.time_ms, "68211.0361") == old.hash
    assert verify_micro.tick_hash(new.prev_hash, PAIR, new.seq, new.time_ms, "68211.5", new.rule, 2) == new.hash
    assert [verify_micro.Tick.of(t.public()).rule for t in (old, new)] == ["touch", "thin"]


def _rehash(ticks: list[dict[str, Any]], prev: str) -> None:
    for t in ticks:
        t["prev_hash"] = prev
        t["hash"] = prev = verify_micro.tick_hash(prev, t["currency_match_id"], t["seq"], t["time"], t["price"],
                                                  t["rule"], t["version"])  # fmt: skip


def _forged_exit(proof: dict[str, Any]) -> None:
    """A whole new chain after the anchor with a better exit: consistent, but not the published log."""
    proof["ticks"][3]["price"] = "150"
    _rehash(proof["ticks"], proof["anchor"]["hash"])


def _entry_before_acceptance(proof: dict[str, Any]) -> None:
    proof["order"]["entry_tick_id"] = proof["anchor"]["id"]


def _settled_early(proof: dict[str, Any]) -> None:
    proof["order"]["settled_at"] = proof["order"]["end_at"] - 1


Tamper = Callable[[dict[str, Any]], None]
TAMPERS: list[tuple[Tamper, str]] = [
    (lambda p: p["ticks"][3].update(price="150"), "hash does not match"),
    (lambda p: p["ticks"].pop(2), "the chain jumps from seq 3 to 5"),
    (lambda p: p["ticks"].pop(0), "the chain jumps"),
    (_forged_exit, "tick seq 5 differs between the proof and the log"),
    (lambda p: p["order"].update(payout="18.5"), "recorded payout 18.5 (the rule gives 18)"),
    (lambda p: p["order"].update(outcome="loss"), "recorded outcome loss (the rule gives win)"),
    (_entry_before_acceptance, "recorded entry_tick_id"),
    (lambda p: p["order"].update(end_price="104"), "recorded end_price 104"),
    (_settled_early, "before its outcome was known"),
    (lambda p: p["anchor"].update(time=p["order"]["accepted_at"] + 1), "hash does not match"),
    (lambda p: p["ticks"][2].update(rule="mid"), "tick seq 4: its hash does not match"),  # version 2 covers the rule
    (lambda p: p["ticks"][2].update(version=1), "tick seq 4: its hash does not match"),
    (lambda p: p["ticks"][2].update(version=3), "tick seq 4 has hash version 3"),
]


@pytest.mark.parametrize(("tamper", "reason"), TAMPERS)
def test_verifier_catches_a_proof_or_a_record_that_does_not_hold(tamper: Tamper, reason: str) -> None:
    proof, log = _settled(_log(UPS), T0 + 1500, 3, rule.UP)
    _verify(proof, log)  # the untouched proof holds
    forged = copy.deepcopy(proof)
    tamper(forged)
    with pytest.raises(verify_micro.Failed, match=reason.replace("(", r"\(").replace(")", r"\)")):
        _verify(forged, log)
