"""Codes that reach phones (issue 30; docs/decisions.md "Codes that reach phones").

- ``phones``: numbers to E.164 and their country (``phonenumbers``); an invalid one is PHONE_INVALID.
- ``ceiling``: the per-country ceiling of codes a minute (SMS pumping), operators' overrides.
- ``queue``: the durable queue, ``sms_messages``, and each message's state.
- ``dispatch``: the sender's core: providers in order, rounds with backoff, receipts.
- ``providers``: the interface and its three implementations (smpp, http, log).
"""
