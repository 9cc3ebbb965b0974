"""Every domain error's answer: its envelope code, HTTP status and (translatable) message.

Envelope codes: 1 success, 0 business error, 999 not logged in / token expired, 996 ignored by the
client (a duplicate submit still in flight). The HTTP status tells the class for tools and bots.
``serve.errors`` turns a ``DomainError`` into the envelope with this table; the products' answers (lever,
second contracts, earn, P2P) are in serve/product_errors.py.
"""

from __future__ import annotations

from serve.i18n import N_
from serve.outcome import CODE_ERROR, CODE_IGNORED, CODE_LOGIN, CODE_OK, Outcome
from serve.product_errors import PRODUCT_ERRORS
from store.errors import ErrorCode

__all__ = ["CODE_ERROR", "CODE_IGNORED", "CODE_LOGIN", "CODE_OK", "ERRORS", "Outcome"]


ERRORS: dict[ErrorCode, Outcome] = {
    ErrorCode.LOGIN_REQUIRED: Outcome(CODE_LOGIN, 401, N_("Please log in first")),
    ErrorCode.BAD_CREDENTIALS: Outcome(CODE_ERROR, 400, N_("Incorrect account or password")),
    ErrorCode.LOGIN_THROTTLED: Outcome(
        CODE_ERROR, 429, N_("Too many failed attempts, please try again in {minutes} minutes")
    ),
    ErrorCode.ACCOUNT_EXISTS: Outcome(CODE_ERROR, 409, N_("This account is already registered")),
    ErrorCode.ACCOUNT_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("This account is not registered")),
    ErrorCode.INVITE_CODE_REQUIRED: Outcome(CODE_ERROR, 400, N_("Invitation code cannot be empty")),
    ErrorCode.INVITE_CODE_INVALID: Outcome(CODE_ERROR, 400, N_("Invalid invitation code")),
    ErrorCode.OLD_PASSWORD_WRONG: Outcome(CODE_ERROR, 400, N_("The old password is incorrect")),
    ErrorCode.PASSWORD_UNCHANGED: Outcome(CODE_ERROR, 400, N_("The new password must differ from the old one")),
    ErrorCode.ALREADY_BOUND: Outcome(CODE_ERROR, 409, N_("This account is already bound")),
    ErrorCode.AREA_INVALID: Outcome(CODE_ERROR, 400, N_("Please choose a valid country or region")),
    ErrorCode.PAY_PASSWORD_TARGET_MISSING: Outcome(CODE_ERROR, 400, N_("Bind an e-mail or phone number first")),
    ErrorCode.RESET_THROTTLED: Outcome(
        CODE_ERROR, 429, N_("Too many failed password resets, please try again in {minutes} minutes")
    ),
    ErrorCode.LOGIN_PASSWORD_WRONG: Outcome(CODE_ERROR, 400, N_("The login password is incorrect")),
    ErrorCode.CODE_INVALID: Outcome(CODE_ERROR, 400, N_("The verification code is wrong or has expired")),
    ErrorCode.CODE_TOO_SOON: Outcome(
        CODE_ERROR, 429, N_("A code was just sent, please try again in {seconds} seconds")
    ),
    ErrorCode.CODE_ATTEMPTS_EXCEEDED: Outcome(CODE_ERROR, 429, N_("Too many wrong codes, please request a new one")),
    ErrorCode.CODE_TARGET_NOT_OWN: Outcome(
        CODE_ERROR, 403, N_("This code can only be sent to your own e-mail or phone")
    ),
    ErrorCode.CODE_THROTTLED: Outcome(
        CODE_ERROR, 429, N_("Too many wrong verification codes, please try again in {minutes} minutes")
    ),
    ErrorCode.PHONE_INVALID: Outcome(
        CODE_ERROR, 400, N_("This is not a valid phone number for the chosen country or region")
    ),
    ErrorCode.SMS_COUNTRY_BUSY: Outcome(
        CODE_ERROR, 429, N_("Too many codes are being sent to this country right now, please try again in a minute")
    ),
    ErrorCode.INSUFFICIENT_BALANCE: Outcome(CODE_ERROR, 400, N_("Insufficient balance")),
    ErrorCode.ACCOUNT_TYPE_NOT_ALLOWED: Outcome(CODE_ERROR, 400, N_("This account cannot hold that currency")),
    ErrorCode.TRANSFER_AMOUNT_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the transfer amount")),
    ErrorCode.AMOUNT_PRECISION: Outcome(CODE_ERROR, 400, N_("The amount can have at most {places} decimal places")),
    ErrorCode.SAME_ACCOUNT: Outcome(CODE_ERROR, 400, N_("Choose two different accounts")),
    ErrorCode.CONVERT_NOT_SUPPORTED: Outcome(CODE_ERROR, 400, N_("Only BTC and ETH can be converted")),
    ErrorCode.CURRENCY_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Currency not found")),
    ErrorCode.AMOUNT_TOO_SMALL: Outcome(CODE_ERROR, 400, N_("The amount is too small")),
    ErrorCode.WALLET_UNAVAILABLE: Outcome(CODE_ERROR, 503, N_("The wallet is busy, please try again")),
    ErrorCode.RECHARGE_CLOSED: Outcome(CODE_ERROR, 400, N_("Deposits of this currency are closed")),
    ErrorCode.CHAIN_NOT_SUPPORTED: Outcome(
        CODE_ERROR, 400, N_("Deposits of {currency} are not supported yet: its chain cannot be received here")
    ),
    ErrorCode.DEPOSITS_SUSPENDED: Outcome(
        CODE_ERROR, 400, N_("Deposits of {currency} are suspended: none of its chains is connected to this exchange")
    ),
    ErrorCode.WITHDRAWALS_SUSPENDED: Outcome(
        CODE_ERROR, 400, N_("Withdrawals on {chain} are suspended: that chain is not connected to this exchange")
    ),
    ErrorCode.DEPOSIT_KEYS_UNAVAILABLE: Outcome(
        CODE_ERROR, 503, N_("Deposit addresses are unavailable right now, please try again later")
    ),
    ErrorCode.PROTOCOL_NOT_FOUND: Outcome(CODE_ERROR, 400, N_("Please choose a chain this currency supports")),
    ErrorCode.WITHDRAWAL_NOT_PENDING: Outcome(CODE_ERROR, 409, N_("This withdrawal has already been processed")),
    ErrorCode.DRAW_CLOSED: Outcome(CODE_ERROR, 400, N_("Withdrawals of this currency are closed")),
    ErrorCode.ADDRESS_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the withdrawal address")),
    ErrorCode.ADDRESS_INVALID: Outcome(CODE_ERROR, 400, N_("Please enter a valid address for this chain")),
    ErrorCode.DEPOSIT_AMOUNT_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the deposit amount")),
    ErrorCode.DRAW_AMOUNT_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the withdrawal amount")),
    ErrorCode.DRAW_BELOW_MIN: Outcome(CODE_ERROR, 400, N_("The minimum withdrawal is {min}")),
    ErrorCode.DRAW_ABOVE_MAX: Outcome(CODE_ERROR, 400, N_("The maximum withdrawal is {max}")),
    ErrorCode.PAY_PASSWORD_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the trade password")),
    ErrorCode.PAY_PASSWORD_NOT_SET: Outcome(CODE_ERROR, 400, N_("Please set a deal password first")),
    ErrorCode.PAY_PASSWORD_WRONG: Outcome(CODE_ERROR, 400, N_("The trade password is incorrect")),
    ErrorCode.MEMO_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the memo")),
    ErrorCode.ADDRESS_REQUIRED_BIND: Outcome(CODE_ERROR, 400, N_("Please enter the address")),
    ErrorCode.DEPOSIT_UNCONFIRMED: Outcome(
        CODE_ERROR,
        400,
        N_("Withdrawals open once your {currency} deposit of {amount} has {confirmations} confirmations"),
    ),
    ErrorCode.DEPOSIT_OWED: Outcome(
        CODE_ERROR,
        400,
        N_("Your {currency} deposit of {amount} was reversed by its chain after you used it: settle it to withdraw"),
    ),
    ErrorCode.REF_CONFLICT: Outcome(CODE_ERROR, 409, N_("This request conflicts with an earlier one")),
    ErrorCode.AMOUNT_ABOVE_MAX: Outcome(CODE_ERROR, 400, N_("The amount can be at most {max}")),
    ErrorCode.SECURITY_COOLDOWN: Outcome(
        CODE_ERROR,
        403,
        N_("Withdrawals are paused for {hours} hours after a security change; they open at {opens} UTC"),
    ),
    ErrorCode.PRICE_STALE: Outcome(CODE_ERROR, 503, N_("Prices are updating, please try again")),
    ErrorCode.UPLOAD_TOO_LARGE: Outcome(CODE_ERROR, 413, N_("The image can be at most {mb} MB")),
    ErrorCode.REAL_NAME_SUBMITTED: Outcome(
        CODE_ERROR, 409, N_("Your real-name information has already been submitted")
    ),
    ErrorCode.IMAGE_NOT_OWN: Outcome(CODE_ERROR, 400, N_("Please upload the image again")),
    ErrorCode.UPLOAD_QUOTA: Outcome(
        CODE_ERROR, 429, N_("You can upload {count} images or {mb} MB a day; please try again tomorrow")
    ),
    ErrorCode.SIGN_INVALID: Outcome(CODE_ERROR, 403, N_("Invalid signature")),
    ErrorCode.REQUEST_EXPIRED: Outcome(CODE_ERROR, 403, N_("The request has expired, please try again")),
    ErrorCode.NOT_YOUR_ACCOUNT: Outcome(CODE_ERROR, 403, N_("You can only act for your own account")),
    ErrorCode.PAIR_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Trading pair not found")),
    ErrorCode.PAIR_CLOSED: Outcome(CODE_ERROR, 400, N_("Trading is not currently supported")),
    ErrorCode.SELL_DISABLED: Outcome(CODE_ERROR, 400, N_("Selling is not currently supported on this pair")),
    ErrorCode.PRICE_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter a price")),
    ErrorCode.QUANTITY_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter a quantity")),
    ErrorCode.PRICE_PRECISION: Outcome(CODE_ERROR, 400, N_("The price can have at most {places} decimal places")),
    ErrorCode.QUANTITY_PRECISION: Outcome(CODE_ERROR, 400, N_("The quantity can have at most {places} decimal places")),
    ErrorCode.NO_BEST_PRICE: Outcome(CODE_ERROR, 400, N_("There is no best price at the moment")),
    ErrorCode.ORDER_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Order not found")),
    ErrorCode.ORDER_NOT_OPEN: Outcome(CODE_ERROR, 409, N_("The order is no longer open")),
    ErrorCode.PAIR_UNAVAILABLE: Outcome(CODE_ERROR, 503, N_("Trading is busy, please try again")),
    ErrorCode.ORDERS_TOO_FAST: Outcome(
        CODE_ERROR, 429, N_("Too many orders on this connection: at most {rate} a second")
    ),
    ErrorCode.PAIR_MOVE_FAILED: Outcome(CODE_ERROR, 409, N_("The pair could not be moved: {reason}")),
    ErrorCode.PERIOD_UNKNOWN: Outcome(CODE_ERROR, 400, N_("Unknown chart period")),
    ErrorCode.PRICE_TOO_HIGH: Outcome(CODE_ERROR, 400, N_("The price can be at most {max}")),
    ErrorCode.QUANTITY_TOO_LARGE: Outcome(CODE_ERROR, 400, N_("The quantity can be at most {max}")),
    ErrorCode.NOTIONAL_TOO_SMALL: Outcome(CODE_ERROR, 400, N_("The order value must be at least {min} {currency}")),
    ErrorCode.PRICE_OUT_OF_BAND: Outcome(
        CODE_ERROR, 400, N_("The price must be between {low} and {high}, around the market price")
    ),
    ErrorCode.TOO_MANY_OPEN_ORDERS: Outcome(
        CODE_ERROR, 400, N_("You can have at most {max} open orders on this pair; cancel some first")
    ),
    # Retried by the engine while the move lasts; a caller sees it only if the move outlasts the wait.
    ErrorCode.PAIR_MOVING: Outcome(CODE_ERROR, 503, N_("Trading is busy, please try again")),
    ErrorCode.ADMIN_BAD_LOGIN: Outcome(CODE_ERROR, 400, N_("Incorrect e-mail, password or two-factor code")),
    ErrorCode.ADMIN_ROLE_REQUIRED: Outcome(CODE_ERROR, 403, N_("Your role does not allow this")),
    ErrorCode.ADMIN_PASSWORD_CHANGE_REQUIRED: Outcome(CODE_ERROR, 403, N_("Set your own password first")),
    ErrorCode.ADMIN_PASSWORD_WEAK: Outcome(
        CODE_ERROR, 400, N_("The new password must be at least 10 characters and differ from the old one")
    ),
    ErrorCode.ADMIN_NUMBER_RANGE: Outcome(CODE_ERROR, 400, N_("{field} must be a number from {min} to {max}")),
    ErrorCode.ADMIN_NUMBER_POSITIVE: Outcome(CODE_ERROR, 400, N_("{field} must be a number above 0 and at most {max}")),
    ErrorCode.ADMIN_NUMBER_PLACES: Outcome(CODE_ERROR, 400, N_("{field} can have at most {places} decimal places")),
    ErrorCode.ADMIN_WHOLE_LIST: Outcome(
        CODE_ERROR,
        400,
        N_("{field} must list 1 to {count} different whole numbers from {min} to {max}, separated by commas"),
    ),
    ErrorCode.ADMIN_DURATIONS: Outcome(
        CODE_ERROR,
        400,
        N_(
            "{field} must list 1 to {count} durations as seconds:percent separated by commas, such as 30:80,60:85: "
            "each duration once, from 1 to {seconds} seconds, a percent above 0 and at most {max} with at most 2 "
            "decimal places"
        ),
    ),
    ErrorCode.ADMIN_PRESETS: Outcome(
        CODE_ERROR,
        400,
        N_(
            "{field} must be empty or list up to {count} different amounts from {min} to {max}, separated by "
            "commas, with at most {places} decimal places"
        ),
    ),
    ErrorCode.ADMIN_BOUNDS_ORDER: Outcome(CODE_ERROR, 400, N_("{low} cannot be above {high}")),
    ErrorCode.ADMIN_USDT_PAIR_ONLY: Outcome(
        CODE_ERROR, 400, N_("Only pairs quoted in USDT can offer leveraged or second contracts")
    ),
    ErrorCode.ADMIN_NOTHING_TO_CHANGE: Outcome(CODE_ERROR, 400, N_("Nothing to change: give at least one setting")),
    ErrorCode.MANUAL_CREDIT_REF_USED: Outcome(
        CODE_ERROR, 409, N_("The reference {ref} was already used for another credit")
    ),
    ErrorCode.MANUAL_CREDIT_NOT_PENDING: Outcome(CODE_ERROR, 409, N_("This credit has already been decided")),
    ErrorCode.SECOND_OPERATOR_REQUIRED: Outcome(
        CODE_ERROR, 403, N_("Another finance operator must approve this: you requested it")
    ),
    ErrorCode.MANUAL_CREDIT_ACCOUNT: Outcome(CODE_ERROR, 400, N_("{currency} cannot be held in the {account} account")),
    ErrorCode.WITHDRAWAL_USER_FROZEN: Outcome(
        CODE_ERROR, 409, N_("This user's withdrawals are frozen: reject the request, or unfreeze them first")
    ),
    ErrorCode.ACCOUNT_FROZEN: Outcome(CODE_ERROR, 403, N_("This account is frozen; please contact support")),
    ErrorCode.WITHDRAWALS_FROZEN: Outcome(
        CODE_ERROR, 403, N_("Withdrawals are frozen on this account; please contact support")
    ),
    ErrorCode.NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Not found")),
    ErrorCode.SETTING_UNKNOWN: Outcome(CODE_ERROR, 404, N_("Unknown setting")),
    ErrorCode.SETTING_SWITCH: Outcome(CODE_ERROR, 400, N_("{field} must be 0 or 1")),
    ErrorCode.SETTING_LINK: Outcome(CODE_ERROR, 400, N_("{field} must be a link starting with https://, or empty")),
    ErrorCode.BAD_REQUEST: Outcome(CODE_ERROR, 400, N_("Invalid request")),
    ErrorCode.DUPLICATE_SUBMIT: Outcome(CODE_IGNORED, 409, N_("The same request is already being processed")),
    ErrorCode.SERVICE_UNAVAILABLE: Outcome(CODE_ERROR, 503, N_("The service is busy, please try again")),
    ErrorCode.IDEMPOTENCY_KEY_INVALID: Outcome(
        CODE_ERROR, 400, N_("An idempotency key is 1 to 64 printable characters")
    ),
    ErrorCode.IDEMPOTENCY_KEYS_DIFFER: Outcome(
        CODE_ERROR, 400, N_("The Idempotency-Key header and client_id differ: send one key")
    ),
    ErrorCode.IDEMPOTENCY_KEY_REUSED: Outcome(
        CODE_ERROR, 422, N_("This key was already used for another request: send a new key with a new request")
    ),
    ErrorCode.IDEMPOTENCY_IN_PROGRESS: Outcome(
        CODE_ERROR, 409, N_("The first request with this key is still in progress, please check again shortly")
    ),
    ErrorCode.IDEMPOTENCY_OUTCOME_UNKNOWN: Outcome(
        CODE_ERROR,
        409,
        N_(
            "The first request with this key did not finish and may have been carried out: check your records, "
            "then send a new request with a new key"
        ),
    ),
    ErrorCode.REQUEST_TOO_LARGE: Outcome(CODE_ERROR, 413, N_("The request is too large: at most {kb} KB")),
    ErrorCode.ORDERS_IN_FLIGHT: Outcome(
        CODE_ERROR, 429, N_("Slow down: at most {limit} orders and cancels can wait for an answer on this connection")
    ),
    ErrorCode.INTERNAL: Outcome(CODE_ERROR, 500, N_("System error, please try again later.")),
    **PRODUCT_ERRORS,
}
