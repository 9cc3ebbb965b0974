"""SMS delivery against real servers: the test SMSC (tests/utils/smpp_server.py, SMPP 3.4 over TCP) and
a Twilio-shaped HTTP gateway that checks each request as Twilio documents it (tests/utils/twilio_server.py).

Each test queues its own messages and hands them to a dispatcher of its own, claimed for an hour, so the
session stack's sender (which drains only what is due) never takes them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Any

import pytest

from config.settings import Settings
from store.models import SmsMessage, SmsState
from store.sms import queue
from store.sms.dispatch import Dispatcher
from store.sms.phones import parse_phone
from store.sms.providers import build
from tests.utils.smpp_server import Smsc
from tests.utils.twilio_server import FakeTwilio
from tests.utils.users import unique_mobile

CODE_EN = "Your verification code is 123456. It expires in 10 minutes."
CODE_HK = "您的驗證碼是 123456，10 分鐘內有效。"


@pytest.fixture
def own_smsc() -> Iterator[Smsc]:
    server = Smsc(system_id="exchange", password="pw")
    yield server
    server.stop()


@pytest.fixture
def own_twilio() -> Iterator[FakeTwilio]:
    server = FakeTwilio(sid="AC" + "1" * 32, token="tok")
    yield server
    server.stop()


def provider_settings(settings: Settings, smsc: Smsc, twilio: FakeTwilio, **extra: Any) -> Settings:
    return settings.model_copy(update={
        "sms_smpp_port": smsc.port, "sms_smpp_system_id": "exchange", "sms_smpp_password": "pw",
        "sms_smpp_source": "Exchange", "sms_http_url": twilio.url, "sms_http_account_sid": twilio.state.sid,
        "sms_http_auth_token": "tok", "sms_http_from": "+15005550006", **extra})  # fmt: skip


@pytest.fixture
async def dispatcher_for(settings: Settings, own_smsc: Smsc, own_twilio: FakeTwilio, db: None) -> AsyncIterator[Any]:
    made: list[Dispatcher] = []

    def make(*names: str, max_rounds: int = 3, **extra: Any) -> Dispatcher:
        configured = provider_settings(settings, own_smsc, own_twilio, **extra)
        found = Dispatcher([build(n, configured) for n in names], max_rounds=max_rounds, retry_s=300)
        made.append(found)
        return found

    yield make
    for d in made:
        await d.close()


async def claimed(text: str, *, to: str | None = None, ttl_s: int = 600) -> SmsMessage:
    """A queued message, claimed for this test (the stack's sender leaves it alone)."""
    phone = parse_phone(to or unique_mobile(34), "86")
    row = await queue.enqueue(phone=phone, purpose=1, text=text, secret="123456", ttl_s=ttl_s)
    await SmsMessage.filter(id=row.id).update(state=SmsState.SENDING, next_at=queue.now() + timedelta(hours=1))
    return await SmsMessage.get(id=row.id)


async def until_final(dispatcher: Dispatcher, row: SmsMessage) -> SmsMessage:
    """Read receipts until the message is delivered or failed (the SMSC sends them right after the submit)."""
    while (found := await SmsMessage.get(id=row.id)).state not in queue.FINAL:
        await dispatcher.collect()
    return found


async def test_smpp_binds_as_transmitter_and_sends_a_code_in_the_gsm_alphabet(
    dispatcher_for: Any, own_smsc: Smsc
) -> None:
    dispatcher = dispatcher_for("smpp")
    await dispatcher.collect()  # the receiver bind comes up before the receipt is sent
    row = await claimed(CODE_EN)
    await dispatcher.deliver(row)
    assert ("bind_transmitter", "exchange") in own_smsc.state.binds
    assert ("bind_receiver", "exchange") in own_smsc.state.binds
    [sub] = own_smsc.state.submitted
    assert (sub.destination_addr, sub.dest_addr_ton) == (row.to.lstrip("+"), 1)
    assert (sub.source_addr, sub.source_addr_ton) == ("Exchange", 5)  # an alphanumeric sender
    assert (sub.data_coding, sub.esm_class, sub.registered_delivery) == (0, 0, 1)
    assert own_smsc.state.texts() == [CODE_EN]
    done = await until_final(dispatcher, row)
    assert (done.state, done.provider, done.provider_ref, done.parts) == (SmsState.DELIVERED, "smpp", sub.message_id, 1)
    assert "123456" not in done.body and "******" in done.redacted  # operators never read a code


async def test_smpp_sends_chinese_as_ucs2_and_splits_a_long_text_with_udh(dispatcher_for: Any, own_smsc: Smsc) -> None:
    dispatcher = dispatcher_for("smpp")
    await dispatcher.deliver(await claimed(CODE_HK))
    [short] = own_smsc.state.submitted
    assert (short.data_coding, short.esm_class) == (8, 0)
    assert short.short_message.decode("utf-16-be") == CODE_HK
    long_text = "您的驗證碼是 654321。" * 8  # 112 UCS2 characters: two segments of at most 67
    row = await claimed(long_text)
    await dispatcher.deliver(row)
    parts = own_smsc.state.submitted[1:]
    assert len(parts) == 2 and all(p.data_coding == 8 and p.esm_class == 0x40 for p in parts)
    ref = parts[0].udh[3]
    assert [p.udh for p in parts] == [bytes([5, 0, 3, ref, 2, 1]), bytes([5, 0, 3, ref, 2, 2])]
    assert all(len(p.payload) <= 134 for p in parts)
    assert own_smsc.state.texts()[1] == long_text
    assert (await SmsMessage.get(id=row.id)).parts == 2


async def test_an_undelivered_receipt_fails_the_message_with_its_reason(dispatcher_for: Any, own_smsc: Smsc) -> None:
    own_smsc.state.receipt_stat = "UNDELIV"
    dispatcher = dispatcher_for("smpp")
    await dispatcher.collect()
    row = await claimed(CODE_EN)
    await dispatcher.deliver(row)
    done = await until_final(dispatcher, row)
    assert done.state == SmsState.FAILED and "UNDELIV" in done.error


async def test_http_provider_posts_the_form_twilio_documents_and_reads_the_status_back(
    dispatcher_for: Any, own_twilio: FakeTwilio
) -> None:
    dispatcher = dispatcher_for("http")
    row = await claimed(CODE_HK)
    await dispatcher.deliver(row)
    [(sid, form)] = own_twilio.state.messages.items()
    assert form == {"To": row.to, "From": "+15005550006", "Body": CODE_HK}
    sent = await SmsMessage.get(id=row.id)
    assert (sent.state, sent.provider, sent.provider_ref) == (SmsState.SENT, "http", sid)
    assert (await until_final(dispatcher, row)).state == SmsState.DELIVERED


async def test_when_the_primary_fails_the_fallback_delivers(
    dispatcher_for: Any, own_smsc: Smsc, own_twilio: FakeTwilio
) -> None:
    own_smsc.state.refuse = 0x08  # ESME_RSYSERR: the SMSC is in trouble
    dispatcher = dispatcher_for("smpp", "http")
    row = await claimed(CODE_EN)
    await dispatcher.deliver(row)
    assert own_twilio.bodies(row.to) == [CODE_EN]
    done = await until_final(dispatcher, row)
    assert (done.state, done.provider) == (SmsState.DELIVERED, "http")
    assert "smpp: submit_sm refused: 0x00000008" in done.error  # why the primary did not take it


async def test_a_primary_that_cannot_be_reached_falls_back_too(
    settings: Settings, own_smsc: Smsc, own_twilio: FakeTwilio, dispatcher_for: Any
) -> None:
    dispatcher = dispatcher_for("smpp", "http", sms_smpp_password="wrong")  # the bind is refused
    row = await claimed(CODE_EN)
    await dispatcher.deliver(row)
    done = await SmsMessage.get(id=row.id)
    assert (done.state, done.provider) == (SmsState.SENT, "http") and "bind_transmitter refused" in done.error


async def test_a_failed_round_is_retried_later_then_given_up(
    dispatcher_for: Any, own_smsc: Smsc, own_twilio: FakeTwilio
) -> None:
    own_smsc.state.refuse, own_twilio.state.down = 0x58, True  # throttled, and the gateway answers 503
    dispatcher = dispatcher_for("smpp", "http", max_rounds=2)
    row = await claimed(CODE_EN)
    await dispatcher.deliver(row)
    again = await SmsMessage.get(id=row.id)
    assert (again.state, again.rounds) == (SmsState.QUEUED, 1)
    assert again.next_at > queue.now() + timedelta(seconds=200)  # the backoff: not before its turn
    assert "smpp:" in again.error and "http 503" in again.error
    await SmsMessage.filter(id=row.id).update(state=SmsState.SENDING)  # its turn came
    await dispatcher.deliver(await SmsMessage.get(id=row.id))
    done = await SmsMessage.get(id=row.id)
    assert done.state == SmsState.FAILED and "after 2 rounds" in done.error
    assert "123456" not in done.body


async def test_a_number_the_gateway_refuses_fails_at_once(dispatcher_for: Any, own_twilio: FakeTwilio) -> None:
    dispatcher = dispatcher_for("http")
    row = await claimed(CODE_EN)
    await SmsMessage.filter(id=row.id).update(to="+0")  # what Twilio answers 21211 to
    await dispatcher.deliver(await SmsMessage.get(id=row.id))
    done = await SmsMessage.get(id=row.id)
    assert (done.state, done.rounds) == (SmsState.FAILED, 0) and "21211" in done.error


async def test_a_code_past_its_lifetime_is_not_sent(dispatcher_for: Any, own_smsc: Smsc) -> None:
    dispatcher = dispatcher_for("smpp")
    row = await claimed(CODE_EN)
    await SmsMessage.filter(id=row.id).update(expires_at=queue.now() - timedelta(seconds=1))
    await dispatcher.deliver(await SmsMessage.get(id=row.id))
    done = await SmsMessage.get(id=row.id)
    assert done.state == SmsState.FAILED and "expired" in done.error
    assert own_smsc.state.submitted == []


def test_production_refuses_the_log_provider(settings: Settings) -> None:
    with pytest.raises(ValueError, match="development"):
        build("log", settings.model_copy(update={"env": "production"}))
