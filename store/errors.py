"""Domain result codes, one enum numbered by subsystem.

Cores, actors and services raise :class:`DomainError`; only ``serve/`` turns a code into the
``{code, msg, data}`` envelope, an HTTP status and a translated message (``serve/errors.py``). The
vocabulary lives on the lowest floor that raises it (the ledger does), so no floor imports upward.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class ErrorCode(IntEnum):
    # 1xxx: access (sessions, credentials, throttles)
    LOGIN_REQUIRED = 1001
    BAD_CREDENTIALS = 1002
    LOGIN_THROTTLED = 1003
    ACCOUNT_EXISTS = 1004
    ACCOUNT_NOT_FOUND = 1005
    INVITE_CODE_REQUIRED = 1006
    INVITE_CODE_INVALID = 1007
    OLD_PASSWORD_WRONG = 1008
    PASSWORD_UNCHANGED = 1009
    ALREADY_BOUND = 1010
    AREA_INVALID = 1011
    PAY_PASSWORD_TARGET_MISSING = 1012
    RESET_THROTTLED = 1013
    LOGIN_PASSWORD_WRONG = 1014
    ACCOUNT_FROZEN = 1015  # an operator froze the login
    # 11xx: verification codes
    CODE_INVALID = 1101
    CODE_TOO_SOON = 1102
    CODE_ATTEMPTS_EXCEEDED = 1103
    CODE_TARGET_NOT_OWN = 1104
    CODE_THROTTLED = 1105  # too many wrong codes for one target or from one address
    PHONE_INVALID = 1106  # not a valid number of the chosen country's plan (store/sms/phones.py)
    SMS_COUNTRY_BUSY = 1107  # the country's per-minute ceiling of codes is reached (store/sms/ceiling.py)
    # 2xxx: wallets
    INSUFFICIENT_BALANCE = 2001
    ACCOUNT_TYPE_NOT_ALLOWED = 2002
    TRANSFER_AMOUNT_REQUIRED = 2003
    AMOUNT_PRECISION = 2004
    SAME_ACCOUNT = 2005
    CONVERT_NOT_SUPPORTED = 2006
    CURRENCY_NOT_FOUND = 2007
    AMOUNT_TOO_SMALL = 2008
    WALLET_UNAVAILABLE = 2009
    RECHARGE_CLOSED = 2010
    PROTOCOL_NOT_FOUND = 2011
    WITHDRAWAL_NOT_PENDING = 2012
    DRAW_CLOSED = 2013
    ADDRESS_REQUIRED = 2014
    ADDRESS_INVALID = 2015
    DRAW_AMOUNT_REQUIRED = 2016
    DRAW_BELOW_MIN = 2017
    DRAW_ABOVE_MAX = 2018
    PAY_PASSWORD_REQUIRED = 2019
    PAY_PASSWORD_NOT_SET = 2020
    PAY_PASSWORD_WRONG = 2021
    MEMO_REQUIRED = 2022
    ADDRESS_REQUIRED_BIND = 2023
    DEPOSIT_UNCONFIRMED = 2024
    REF_CONFLICT = 2025  # a ledger ref already names another change: never taken for a replay
    AMOUNT_ABOVE_MAX = 2026
    SECURITY_COOLDOWN = 2027  # withdrawals wait after a contact or password change
    WITHDRAWALS_FROZEN = 2029  # an operator froze the withdrawals
    PRICE_STALE = 2028  # no fresh mark price to convert at (its pair is down, paused or has none yet)
    # 14xx: personal centre
    UPLOAD_TOO_LARGE = 1401
    REAL_NAME_SUBMITTED = 1402
    IMAGE_NOT_OWN = 1403
    UPLOAD_QUOTA = 1404
    # 15xx: walletMiddle
    SIGN_INVALID = 1501
    REQUEST_EXPIRED = 1502
    NOT_YOUR_ACCOUNT = 1503
    # 16xx: the back office (operators)
    ADMIN_BAD_LOGIN = 1601
    ADMIN_ROLE_REQUIRED = 1602
    ADMIN_PASSWORD_CHANGE_REQUIRED = 1603
    ADMIN_PASSWORD_WEAK = 1604
    # 162x: the console's market settings (currencies, pairs, lever and second-contract terms)
    ADMIN_NUMBER_RANGE = 1620  # a setting outside its range (with the field, min and max)
    ADMIN_NUMBER_POSITIVE = 1621
    ADMIN_NUMBER_PLACES = 1622
    ADMIN_WHOLE_LIST = 1623  # lever multiples or hand presets
    ADMIN_DURATIONS = 1624  # second-contract durations, seconds:percent
    ADMIN_PRESETS = 1625  # preset stakes
    ADMIN_BOUNDS_ORDER = 1626  # a minimum above its maximum
    ADMIN_USDT_PAIR_ONLY = 1627  # lever or second contracts on a pair not quoted in USDT
    ADMIN_NOTHING_TO_CHANGE = 1628
    # 163x: operator controls over money (manual credits, second approvals)
    MANUAL_CREDIT_REF_USED = 1630  # the reference names another credit (another user, currency or amount)
    MANUAL_CREDIT_NOT_PENDING = 1631
    SECOND_OPERATOR_REQUIRED = 1632  # the operator who asked cannot be the one who approves
    MANUAL_CREDIT_ACCOUNT = 1633  # the currency cannot be held in that account type
    # 3xxx: matching and orders
    PAIR_NOT_FOUND = 3001
    PAIR_CLOSED = 3002
    SELL_DISABLED = 3003
    PRICE_REQUIRED = 3004
    QUANTITY_REQUIRED = 3005
    PRICE_PRECISION = 3006
    QUANTITY_PRECISION = 3007
    NO_BEST_PRICE = 3008
    ORDER_NOT_FOUND = 3009
    ORDER_NOT_OPEN = 3010
    PAIR_UNAVAILABLE = 3011
    PERIOD_UNKNOWN = 3012
    PAIR_MOVING = 3013  # the pair is moving to another node: the engine sends the command again
    PRICE_TOO_HIGH = 3014
    QUANTITY_TOO_LARGE = 3015
    NOTIONAL_TOO_SMALL = 3016
    PRICE_OUT_OF_BAND = 3017
    TOO_MANY_OPEN_ORDERS = 3018
    ORDERS_TOO_FAST = 3019  # a websocket connection over its order rate
    DEPOSIT_AMOUNT_REQUIRED = 2040  # the console's manual deposit without a valid amount
    WITHDRAWAL_USER_FROZEN = 2041  # approving a request of a user whose withdrawals an operator froze since
    CHAIN_NOT_SUPPORTED = 2042  # a deposit address asked on a chain with no adapter yet (ADA, DOT, FIL, XRP, EOS)
    DEPOSIT_KEYS_UNAVAILABLE = 2043  # no usable xpub for the chain's family (not configured, or changed)
    DEPOSIT_OWED = 2044  # a reorg reversed a credited chain deposit the user had spent: withdrawals wait
    DEPOSITS_SUSPENDED = 2045  # none of the currency's chains is followed by a watcher here (no node)
    WITHDRAWALS_SUSPENDED = 2046  # the chosen chain is not one the Signer sends on here (no node, or watch-only)
    PAIR_MOVE_FAILED = 3020  # the console asked to move a pair's actor and the placement could not
    # 4xxx: leveraged contracts
    LEVER_NOT_OFFERED = 4001
    LEVER_PRICE_REQUIRED = 4002  # the spec's p_delprice
    LEVER_MULTIPLE_REQUIRED = 4003  # p_times
    LEVER_HANDS_REQUIRED = 4004  # p_hands
    LEVER_MULTIPLE_INVALID = 4005
    LEVER_HANDS_RANGE = 4006
    LEVER_TARGET_REACHED = 4007  # an entrustment the mark has already reached: a market open instead
    LEVER_EXPOSURE = 4008
    LEVER_POSITION_NOT_FOUND = 4009
    LEVER_POSITION_NOT_OPEN = 4010
    LEVER_NOT_ENTRUSTED = 4011
    LEVER_TAKE_PROFIT_ABOVE = 4012  # a long's take-profit must be above the mark
    LEVER_TAKE_PROFIT_BELOW = 4013
    LEVER_STOP_LOSS_BELOW = 4014  # a long's stop-loss must be below the mark
    LEVER_STOP_LOSS_ABOVE = 4015
    LEVER_MARGIN_IN_USE = 4016  # a transfer out of the lever account beyond what positions leave free
    LEVER_ACCOUNT_AT_RISK = 4017  # an open or entrustment that would put the account at the liquidation level
    # 42xx: second contracts
    MICRO_SWITCHED_OFF = 4201  # the site setting micro_open is 0
    MICRO_NOT_OFFERED = 4202  # the pair has no second contracts
    MICRO_SECONDS_INVALID = 4203
    MICRO_CURRENCY_INVALID = 4204  # not a stake currency
    MICRO_PRESET_INVALID = 4205  # a preset stake (lx 2) that is not one of the presets
    MICRO_STAKE_RANGE = 4206
    MICRO_OPEN_LIMIT = 4207  # the user's open stakes would pass micro_max_open
    MICRO_EXPOSURE = 4208  # the house's cap on one pair and duration is reached
    MICRO_ORDER_NOT_FOUND = 4210
    MICRO_PROOF_TOO_FAST = 4211  # microtrade/proof asked more than micro_proof_rate times a minute
    # 430x: lock savings, 431x: mining (issue 13)
    LOCK_PRODUCT_NOT_FOUND = 4301
    LOCK_PRODUCT_CLOSED = 4302
    LOCK_SOLD_OUT = 4303  # the product's quota_lots are all sold
    MINING_PRODUCT_NOT_FOUND = 4311
    MINING_NOT_OPEN = 4312  # the product is not started or has ended
    MINING_TYPE_INVALID = 4313  # type is not 1 USDT, 2 ACB or 3 MVBT
    MINING_AMOUNT_REQUIRED = 4314
    MINING_BELOW_MIN = 4315  # the spec's minimum message, with the number
    MINING_ABOVE_MAX = 4316  # the spec's maximum message, with the number
    MINING_ORDER_NOT_FOUND = 4317
    MINING_ORDER_ENDED = 4318  # a cancel of an order that is no longer active
    # 435x: token sales (shoufa), 437x: listing applications (issue 13)
    SALE_NOT_FOUND = 4351
    SALE_NOT_STARTED = 4352
    SALE_ENDED = 4353
    SALE_NUMS_REQUIRED = 4354  # the spec's "wrong purchase quantity"
    SALE_NUMS_STEP = 4355  # not a whole number of the sale's step (its cost would not be exact)
    SALE_PER_USER_MAX = 4356
    # 4357-4369: issue 27's limits on token sales and listing applications
    SALE_BELOW_MIN = 4357  # a subscription locking less than the sale's min_amount
    LISTING_BELOW_MIN = 4358  # an application of less than the project's min_amount
    PRODUCT_SALE_MIN = 4359  # a sale's min_amount above what one user may subscribe
    LISTING_NOT_FOUND = 4371
    LISTING_NOT_STARTED = 4372
    LISTING_ENDED = 4373
    LISTING_NO_FUNDS = 4374  # the spec's no-funds message: 0 or less applied
    # 438x-439x: the operator's products (the console's products screen, `exchange products`)
    PRODUCT_NOT_FOUND = 4380
    PRODUCT_FIELD_UNKNOWN = 4381
    PRODUCT_FIELDS_MISSING = 4382  # a create without every required field
    PRODUCT_TEXT_INVALID = 4383
    PRODUCT_WHOLE_NUMBER_INVALID = 4384
    PRODUCT_NUMBER_INVALID = 4385  # not a plain decimal >= 0 that a money column holds
    PRODUCT_BOOL_INVALID = 4386
    PRODUCT_TIME_INVALID = 4387
    PRODUCT_CURRENCY_UNKNOWN = 4388
    PRODUCT_CURRENCY_NOT_FINANCIAL = 4389  # a currency the savings (financial) account cannot hold
    PRODUCT_ABOVE_ZERO = 4390
    PRODUCT_MINING_RANGE = 4391  # rate_min above rate_max, or mins above maxs
    PRODUCT_MINING_STATUS = 4392
    PRODUCT_SALE_TIMES = 4393
    PRODUCT_SALE_SAME_ASSET = 4394
    PRODUCT_LISTING_SUPPLY = 4395  # shengyu above total
    PRODUCT_LISTING_TIMES = 4396
    PRODUCT_ALLOCATED = 4397  # only the texts of an allocated sale or listing change
    PRODUCT_HAS_ORDERS = 4398  # a sale's or listing's token, price and supply, once it has orders
    PRODUCT_ENDED = 4399  # opening or closing a sale or listing that has ended
    # 44xx: the P2P market (merchants, ads, orders)
    P2P_REAL_NAME_REQUIRED = 4401
    MERCHANT_NICKNAME_INVALID = 4402
    MERCHANT_NICKNAME_TAKEN = 4403
    MERCHANT_APPLIED = 4404
    MERCHANT_ALREADY = 4405
    MERCHANT_REQUIRED = 4406
    MERCHANT_NOT_PENDING = 4407
    P2P_AD_NOT_FOUND = 4410
    P2P_SIDE_INVALID = 4411
    P2P_CURRENCY_INVALID = 4412
    P2P_FIAT_INVALID = 4413
    P2P_PRICE_INVALID = 4414
    P2P_LIMITS_INVALID = 4415
    P2P_TOTAL_INVALID = 4416
    P2P_TOTAL_BELOW_SOLD = 4417
    P2P_METHODS_INVALID = 4418
    P2P_WINDOW_INVALID = 4419
    P2P_TOO_MANY_ADS = 4420
    P2P_AD_CLOSED = 4421
    P2P_REMARKS_TOO_LONG = 4422
    P2P_AD_OFFLINE = 4430
    P2P_OWN_AD = 4431
    P2P_AMOUNT_REQUIRED = 4432
    P2P_AMOUNT_LIMITS = 4433
    P2P_STOCK = 4434
    P2P_METHOD_UNAVAILABLE = 4435
    P2P_UNPAID_EXISTS = 4436
    P2P_CANCEL_LIMIT = 4437
    P2P_MERCHANT_CANCEL_LIMIT = 4438
    P2P_ORDER_NOT_FOUND = 4440
    P2P_BUYER_ONLY = 4441
    P2P_SELLER_ONLY = 4442
    P2P_NOT_UNPAID = 4443
    P2P_NOT_PAID = 4444
    P2P_WINDOW_OVER = 4445
    P2P_NOT_IN_APPEAL = 4446
    P2P_REASON_INVALID = 4447
    P2P_IMAGES_INVALID = 4448
    P2P_REPLY_OTHER_SIDE = 4449  # the side that appealed cannot answer its own appeal
    P2P_REPLIED = 4450
    # 4451-4469: issue 27's limits on the P2P market
    P2P_UNPAID_MAX = 4451  # a taker with p2p_unpaid_max orders waiting for payment opens no other
    # 13xx: content and reference data
    NOT_FOUND = 1301
    SETTING_UNKNOWN = 1302
    SETTING_SWITCH = 1303  # a 0-or-1 site setting given something else
    SETTING_LINK = 1304  # a link setting that is neither empty nor https://…
    # 9xxx: the platform
    BAD_REQUEST = 9001
    DUPLICATE_SUBMIT = 9002
    SERVICE_UNAVAILABLE = 9003  # the database, Redis or an actor cannot be reached right now
    # 902x: idempotency keys (docs/decisions.md "The idempotency rule")
    IDEMPOTENCY_KEY_INVALID = 9020  # not 1 to 64 printable characters
    IDEMPOTENCY_KEYS_DIFFER = 9021  # the Idempotency-Key header and the body's client_id both given, different
    IDEMPOTENCY_KEY_REUSED = 9022  # the key names another request (route or body) of the user
    IDEMPOTENCY_IN_PROGRESS = 9023  # the key's first request is still running
    IDEMPOTENCY_OUTCOME_UNKNOWN = 9024  # the key's first request ended unknown and cannot be run again
    REQUEST_TOO_LARGE = 9010  # a body over the edge's limit, refused before it is read
    ORDERS_IN_FLIGHT = 9011  # a websocket connection with too many orders and cancels still unanswered
    INTERNAL = 9999


class DomainError(Exception):
    """A business rule said no. ``params`` fill the placeholders of the translated message."""

    def __init__(self, code: ErrorCode, **params: Any) -> None:
        super().__init__(f"{code.name} {params}" if params else code.name)
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Crosses process boundaries (Ray actor -> Serve replica) with its code and params intact.
        return (_rebuild, (int(self.code), self.params))


def _rebuild(code: int, params: dict[str, Any]) -> DomainError:
    return DomainError(ErrorCode(code), **params)


class OutcomeUnknown(DomainError):
    """The command may or may not have been carried out (the pair died or did not answer in time):
    its caller must not undo what it did before (a freeze), the reconcilers settle it."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_unknown, (int(self.code), self.params))


def _rebuild_unknown(code: int, params: dict[str, Any]) -> OutcomeUnknown:
    return OutcomeUnknown(ErrorCode(code), **params)
