from __future__ import annotations

from actors.push.channels import public_topic, topic_for, use_database, user_topic
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
    assert topic_for("MARKET_DEPTH.BTC/USDT", None) == public_topic("MARKET_DEPTH.BTC/USDT")
    assert topic_for("DAY_MARKET", 7) == public_topic("DAY_MARKET")
    assert topic_for("ADMIN", None) is None
    assert topic_for("KLINE." + "X" * 80, None) is None


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
