from __future__ import annotations

from actors.push.channels import topic_for, user_topic
from actors.push.registry import Registry


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


def test_user_channels_need_a_login_and_public_ones_a_known_root() -> None:
    assert topic_for("TX_MATCHED", None) is None
    assert topic_for("TX_MATCHED", 7) == user_topic(7, "TX_MATCHED") != user_topic(8, "TX_MATCHED")
    assert topic_for("MARKET_DEPTH.BTC/USDT", None) == "ex:push:MARKET_DEPTH.BTC/USDT"
    assert topic_for("DAY_MARKET", 7) == "ex:push:DAY_MARKET"
    assert topic_for("ADMIN", None) is None
    assert topic_for("KLINE." + "X" * 80, None) is None
