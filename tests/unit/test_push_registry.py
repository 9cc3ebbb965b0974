from __future__ import annotations

import pytest

from serve.ws.registry import Registry
from store.channels import is_user_topic, public_topic, topic_for, use_database, user_topic


def test_first_and_last_listener_drive_upstream_subscriptions() -> None:
    reg: Registry[str] = Registry()
    assert reg.subscribe("alice", "ex:push:DAY_MARKET") is True
    assert reg.subscribe("bob", "ex:push:DAY_MARKET") is False
    assert reg.subscribe("alice", "ex:push:DAY_MARKET") is False  # twice is once
    assert set(reg.listeners("ex:push:DAY_MARKET")) == {"alice", "bob"}
    assert reg.unsubscribe("alice", "ex:push:DAY_MARKET") is False
    assert reg.unsubscribe("alice", "ex:push:DAY_MARKET") is False  # not subscribed any more
    assert reg.unsubscribe("bob", "ex:push:DAY_MARKET") is True
    assert reg.topic_count == 0


def test_dropping_a_connection_reports_the_topics_it_emptied() -> None:
    reg: Registry[str] = Registry()
    reg.subscribe("alice", "a")
    reg.subscribe("alice", "b")
    reg.subscribe("bob", "b")
    assert reg.drop("alice") == ["a"]
    assert reg.topics("alice") == set() and list(reg.listeners("b")) == ["bob"]


SYMBOLS = frozenset({"BTC/USDT", "ETH/USDT"})


def test_user_channels_need_a_login_and_public_ones_a_known_root() -> None:
    assert topic_for("TX_MATCHED", None, SYMBOLS) is None
    assert topic_for("TX_MATCHED", 7, SYMBOLS) == user_topic(7, "TX_MATCHED") != user_topic(8, "TX_MATCHED")
    assert topic_for("MARKET_DEPTH.BTC/USDT", None, SYMBOLS) == public_topic("MARKET_DEPTH.BTC/USDT")
    assert topic_for("DAY_MARKET", 7, SYMBOLS) == public_topic("DAY_MARKET")
    assert topic_for("ADMIN", None, SYMBOLS) is None
    assert topic_for("KLINE." + "X" * 80, None, SYMBOLS) is None


@pytest.mark.parametrize("root", ["MARKET_DEPTH", "GLOBAL_TX", "KLINE", "MARK"])
def test_public_channels_name_a_pair_that_trades_here(root: str) -> None:
    assert topic_for(f"{root}.ETH/USDT", None, SYMBOLS) == public_topic(f"{root}.ETH/USDT")
    for made_up in (f"{root}.NOPE/USDT", f"{root}.", root, f"{root}.BTC/USDT.1min", f"{root}.btc/usdt",
                    f"{root}.BTC/USDT ", f"{root}x.BTC/USDT"):  # fmt: skip
        assert topic_for(made_up, None, SYMBOLS) is None, made_up
    assert topic_for("DAY_MARKET.BTC/USDT", None, SYMBOLS) is None  # DAY_MARKET takes no symbol


def test_user_topics_are_told_from_public_ones() -> None:
    assert is_user_topic(user_topic(7, "TX_MATCHED"))
    assert not is_user_topic(public_topic("MARKET_DEPTH.BTC/USDT")) and not is_user_topic(public_topic("DAY_MARKET"))


def test_count_is_the_connections_own_topics() -> None:
    reg: Registry[str] = Registry()
    for topic in ("a", "b", "b"):
        reg.subscribe("alice", topic)
    reg.subscribe("bob", "c")
    assert (reg.count("alice"), reg.count("bob"), reg.count("carol")) == (2, 1, 0)


def test_topics_carry_the_redis_database_so_two_exchanges_on_one_server_never_cross() -> None:
    from store.cache import redis_db

    def settings(url: str) -> object:
        from config.settings import Settings

        return Settings(redis_url=url)

    assert [redis_db(settings(u)) for u in ("redis://h:6379/5", "redis://h:6379", "redis://h/0?db=3")] == [5, 0, 3]
    before = public_topic("DAY_MARKET")
    try:
        use_database(5)
        five = (public_topic("DAY_MARKET"), user_topic(7, "TX_MATCHED"))
        use_database(6)
        assert five[0] != public_topic("DAY_MARKET") and five[1] != user_topic(7, "TX_MATCHED")
        assert five == ("ex:push:5:DAY_MARKET", "ex:push:5:user:7:TX_MATCHED")
    finally:
        use_database(int(before.split(":")[2]))
