"""Every domain error's answer: its envelope code, HTTP status and (translatable) message.

Envelope codes: 1 success, 0 business error, 999 not logged in / token expired, 996 ignored by the
client (a duplicate submit still in flight). The HTTP status tells the class for tools and bots.
``serve.errors`` turns a ``DomainError`` into the envelope with this table.
"""

from __future__ import annotations

from typing import NamedTuple

from serve.i18n import N_
from store.errors import ErrorCode

CODE_OK = 1
CODE_ERROR = 0
CODE_LOGIN = 999
CODE_IGNORED = 996


class Outcome(NamedTuple):
    code: int
    status: int
    message: str


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
    ErrorCode.LEVER_NOT_OFFERED: Outcome(CODE_ERROR, 400, N_("Leveraged trading is not offered on this pair")),
    ErrorCode.LEVER_PRICE_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the entrustment price")),
    ErrorCode.LEVER_MULTIPLE_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please choose a multiple")),
    ErrorCode.LEVER_HANDS_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the number of hands")),
    ErrorCode.LEVER_MULTIPLE_INVALID: Outcome(CODE_ERROR, 400, N_("This pair offers the multiples {multiples}")),
    ErrorCode.LEVER_HANDS_RANGE: Outcome(CODE_ERROR, 400, N_("A position can have 1 to {max} hands")),
    ErrorCode.LEVER_TARGET_REACHED: Outcome(
        CODE_ERROR, 400, N_("The market price has already reached {price}: open at the market price instead")
    ),
    ErrorCode.LEVER_EXPOSURE: Outcome(
        CODE_ERROR, 400, N_("This pair cannot take more positions on this side now, please try later")
    ),
    ErrorCode.LEVER_POSITION_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Position not found")),
    ErrorCode.LEVER_POSITION_NOT_OPEN: Outcome(CODE_ERROR, 409, N_("The position is no longer open")),
    ErrorCode.LEVER_NOT_ENTRUSTED: Outcome(CODE_ERROR, 409, N_("The entrustment is no longer pending")),
    ErrorCode.LEVER_TAKE_PROFIT_ABOVE: Outcome(
        CODE_ERROR, 400, N_("The take-profit price must be above the market price {price}")
    ),
    ErrorCode.LEVER_TAKE_PROFIT_BELOW: Outcome(
        CODE_ERROR, 400, N_("The take-profit price must be below the market price {price}")
    ),
    ErrorCode.LEVER_STOP_LOSS_BELOW: Outcome(
        CODE_ERROR, 400, N_("The stop-loss price must be below the market price {price}")
    ),
    ErrorCode.LEVER_STOP_LOSS_ABOVE: Outcome(
        CODE_ERROR, 400, N_("The stop-loss price must be above the market price {price}")
    ),
    ErrorCode.LEVER_MARGIN_IN_USE: Outcome(
        CODE_ERROR, 400, N_("At most {max} can leave the lever account while its positions are open")
    ),
    ErrorCode.LEVER_ACCOUNT_AT_RISK: Outcome(
        CODE_ERROR,
        400,
        N_("This would take your lever account to the liquidation level: close or add funds first"),
    ),
    ErrorCode.MICRO_SWITCHED_OFF: Outcome(CODE_ERROR, 403, N_("Second contracts are not offered here")),
    ErrorCode.MICRO_NOT_OFFERED: Outcome(CODE_ERROR, 400, N_("Second contracts are not offered on this pair")),
    ErrorCode.MICRO_SECONDS_INVALID: Outcome(CODE_ERROR, 400, N_("This pair offers the durations {seconds} seconds")),
    ErrorCode.MICRO_CURRENCY_INVALID: Outcome(CODE_ERROR, 400, N_("This currency cannot be staked")),
    ErrorCode.MICRO_PRESET_INVALID: Outcome(CODE_ERROR, 400, N_("Please choose one of the amounts {numbers}")),
    ErrorCode.MICRO_STAKE_RANGE: Outcome(CODE_ERROR, 400, N_("The amount must be between {min} and {max}")),
    ErrorCode.MICRO_OPEN_LIMIT: Outcome(
        CODE_ERROR, 400, N_("Your contracts in progress can hold at most {max} {currency}; wait for some to end")
    ),
    ErrorCode.MICRO_EXPOSURE: Outcome(
        CODE_ERROR, 400, N_("This pair cannot take more contracts of this duration now, please try later")
    ),
    ErrorCode.MICRO_ORDER_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Contract not found")),
    ErrorCode.MICRO_PROOF_TOO_FAST: Outcome(
        CODE_ERROR, 429, N_("Too many proof requests: at most {rate} a minute, please try again shortly")
    ),
    ErrorCode.LOCK_PRODUCT_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Lock product not found")),
    ErrorCode.LOCK_PRODUCT_CLOSED: Outcome(CODE_ERROR, 400, N_("This lock product is not on sale")),
    ErrorCode.LOCK_SOLD_OUT: Outcome(CODE_ERROR, 409, N_("This lock product is sold out")),
    ErrorCode.MINING_PRODUCT_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Mining product not found")),
    ErrorCode.MINING_NOT_OPEN: Outcome(CODE_ERROR, 400, N_("This mining product is not open for subscription")),
    ErrorCode.MINING_TYPE_INVALID: Outcome(CODE_ERROR, 400, N_("Please choose USDT, ACB or MVBT")),
    ErrorCode.MINING_AMOUNT_REQUIRED: Outcome(CODE_ERROR, 400, N_("Please enter the amount")),
    ErrorCode.MINING_BELOW_MIN: Outcome(CODE_ERROR, 400, N_("The minimum amount is {min}")),
    ErrorCode.MINING_ABOVE_MAX: Outcome(CODE_ERROR, 400, N_("The maximum amount is {max}")),
    ErrorCode.MINING_ORDER_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Mining order not found")),
    ErrorCode.MINING_ORDER_ENDED: Outcome(CODE_ERROR, 409, N_("This mining order has already ended")),
    ErrorCode.SALE_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Token sale not found")),
    ErrorCode.SALE_NOT_STARTED: Outcome(CODE_ERROR, 400, N_("This token sale has not started yet")),
    ErrorCode.SALE_ENDED: Outcome(CODE_ERROR, 409, N_("This token sale has ended")),
    ErrorCode.SALE_NUMS_REQUIRED: Outcome(CODE_ERROR, 400, N_("Wrong purchase quantity")),
    ErrorCode.SALE_NUMS_STEP: Outcome(CODE_ERROR, 400, N_("The quantity must be a multiple of {step}")),
    ErrorCode.SALE_PER_USER_MAX: Outcome(
        CODE_ERROR, 400, N_("You can subscribe at most {max} in this sale; {left} more is possible")
    ),
    ErrorCode.SALE_BELOW_MIN: Outcome(
        CODE_ERROR, 400, N_("The minimum subscription is {min} {currency}: at least {nums} {token} at this price")
    ),
    ErrorCode.LISTING_BELOW_MIN: Outcome(CODE_ERROR, 400, N_("The minimum application is {min} {currency}")),
    ErrorCode.LISTING_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Listing project not found")),
    ErrorCode.LISTING_NOT_STARTED: Outcome(CODE_ERROR, 400, N_("Applications for this listing have not opened yet")),
    ErrorCode.LISTING_ENDED: Outcome(CODE_ERROR, 409, N_("Applications for this listing have closed")),
    ErrorCode.LISTING_NO_FUNDS: Outcome(CODE_ERROR, 400, N_("No funds: enter an amount of USDT above 0")),
    # The operator's products: the field names (rengou, zhouqi …) are the columns', shown as they are.
    ErrorCode.PRODUCT_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("There is no {kind} product {id}")),
    ErrorCode.PRODUCT_FIELD_UNKNOWN: Outcome(
        CODE_ERROR, 400, N_("A {kind} product has no field '{field}'; its fields are {fields}")
    ),
    ErrorCode.PRODUCT_FIELDS_MISSING: Outcome(CODE_ERROR, 400, N_("A {kind} product needs {fields}")),
    ErrorCode.PRODUCT_TEXT_INVALID: Outcome(CODE_ERROR, 400, N_("{field} takes text of {min} to {max} characters")),
    ErrorCode.PRODUCT_WHOLE_NUMBER_INVALID: Outcome(
        CODE_ERROR, 400, N_("{field} takes a whole number from 0 to {max}")
    ),
    ErrorCode.PRODUCT_NUMBER_INVALID: Outcome(
        CODE_ERROR, 400, N_("{field} takes a number >= 0 with at most 17 digits before the point and 18 after")
    ),
    ErrorCode.PRODUCT_BOOL_INVALID: Outcome(CODE_ERROR, 400, N_("{field} takes true or false")),
    ErrorCode.PRODUCT_TIME_INVALID: Outcome(
        CODE_ERROR, 400, N_("{field} is not a time: give now, +3d, -2h, 2026-12-01, 2026-12-01T08:00 (UTC) or ms")
    ),
    ErrorCode.PRODUCT_CURRENCY_UNKNOWN: Outcome(CODE_ERROR, 400, N_("{field}: unknown currency '{currency}'")),
    ErrorCode.PRODUCT_CURRENCY_NOT_FINANCIAL: Outcome(
        CODE_ERROR, 400, N_("{currency} cannot be held in the savings (financial) account")
    ),
    ErrorCode.PRODUCT_ABOVE_ZERO: Outcome(CODE_ERROR, 400, N_("{field} must be above 0")),
    ErrorCode.PRODUCT_MINING_RANGE: Outcome(
        CODE_ERROR, 400, N_("rate_min must be at most rate_max, and mins at most maxs")
    ),
    ErrorCode.PRODUCT_MINING_STATUS: Outcome(
        CODE_ERROR, 400, N_("status is 0 (not started), 1 (in progress) or 2 (ended)")
    ),
    ErrorCode.PRODUCT_SALE_TIMES: Outcome(CODE_ERROR, 400, N_("btime must be before etime")),
    ErrorCode.PRODUCT_SALE_MIN: Outcome(
        CODE_ERROR, 400, N_("min_amount is more than one user may subscribe: {most} {currency} at most")
    ),
    ErrorCode.PRODUCT_SALE_SAME_ASSET: Outcome(
        CODE_ERROR, 400, N_("The token sold (huodong) and the accepted asset (jieshou) must differ")
    ),
    ErrorCode.PRODUCT_LISTING_SUPPLY: Outcome(
        CODE_ERROR, 400, N_("shengyu (tokens for applicants) can be at most total")
    ),
    ErrorCode.PRODUCT_LISTING_TIMES: Outcome(
        CODE_ERROR, 400, N_("btime must be before etime, and online not before etime")
    ),
    ErrorCode.PRODUCT_ALLOCATED: Outcome(CODE_ERROR, 409, N_("This {kind} is allocated: only {fields} can change")),
    ErrorCode.PRODUCT_HAS_ORDERS: Outcome(CODE_ERROR, 409, N_("This {kind} has orders: {fields} can no longer change")),
    ErrorCode.PRODUCT_ENDED: Outcome(CODE_ERROR, 409, N_("The {kind} {id} has ended")),
    ErrorCode.P2P_REAL_NAME_REQUIRED: Outcome(CODE_ERROR, 403, N_("Complete real-name authentication first")),
    ErrorCode.MERCHANT_NICKNAME_INVALID: Outcome(
        CODE_ERROR, 400, N_("The nickname must be 2 to 20 letters, digits, _ or -")
    ),
    ErrorCode.MERCHANT_NICKNAME_TAKEN: Outcome(CODE_ERROR, 409, N_("This nickname is already taken")),
    ErrorCode.MERCHANT_APPLIED: Outcome(CODE_ERROR, 409, N_("You have already applied; please wait for the review")),
    ErrorCode.MERCHANT_ALREADY: Outcome(CODE_ERROR, 409, N_("You are already a merchant")),
    ErrorCode.MERCHANT_REQUIRED: Outcome(CODE_ERROR, 403, N_("Only approved merchants can post ads")),
    ErrorCode.MERCHANT_NOT_PENDING: Outcome(CODE_ERROR, 409, N_("There is no pending merchant application")),
    ErrorCode.P2P_AD_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Ad not found")),
    ErrorCode.P2P_SIDE_INVALID: Outcome(CODE_ERROR, 400, N_("Choose whether you buy or sell")),
    ErrorCode.P2P_CURRENCY_INVALID: Outcome(CODE_ERROR, 400, N_("This currency is not traded in the P2P market")),
    ErrorCode.P2P_FIAT_INVALID: Outcome(CODE_ERROR, 400, N_("Choose CNY or USD")),
    ErrorCode.P2P_PRICE_INVALID: Outcome(CODE_ERROR, 400, N_("Enter a price above 0 with at most 2 decimals")),
    ErrorCode.P2P_LIMITS_INVALID: Outcome(
        CODE_ERROR,
        400,
        N_("The order limits must be at least 1 with at most 2 decimals, and the minimum no more than the maximum"),
    ),
    ErrorCode.P2P_TOTAL_INVALID: Outcome(
        CODE_ERROR, 400, N_("Enter a total above 0 with at most {places} decimal places")
    ),
    ErrorCode.P2P_TOTAL_BELOW_SOLD: Outcome(
        CODE_ERROR, 400, N_("The total cannot be less than what orders have already taken ({sold})")
    ),
    ErrorCode.P2P_METHODS_INVALID: Outcome(
        CODE_ERROR, 400, N_("Choose payment methods you have set up in your own real name")
    ),
    ErrorCode.P2P_WINDOW_INVALID: Outcome(CODE_ERROR, 400, N_("Choose one of the offered payment windows")),
    ErrorCode.P2P_TOO_MANY_ADS: Outcome(CODE_ERROR, 409, N_("You can have at most {max} ads open")),
    ErrorCode.P2P_AD_CLOSED: Outcome(CODE_ERROR, 409, N_("This ad is closed")),
    ErrorCode.P2P_REMARKS_TOO_LONG: Outcome(CODE_ERROR, 400, N_("The remarks can be at most 500 characters")),
    ErrorCode.P2P_AD_OFFLINE: Outcome(CODE_ERROR, 409, N_("This ad is not available right now")),
    ErrorCode.P2P_OWN_AD: Outcome(CODE_ERROR, 400, N_("You cannot trade with your own ad")),
    ErrorCode.P2P_AMOUNT_REQUIRED: Outcome(CODE_ERROR, 400, N_("Enter the amount to trade")),
    ErrorCode.P2P_AMOUNT_LIMITS: Outcome(CODE_ERROR, 400, N_("The order total must be between {min} and {max} {fiat}")),
    ErrorCode.P2P_STOCK: Outcome(CODE_ERROR, 409, N_("Only {stock} {currency} is available on this ad")),
    ErrorCode.P2P_METHOD_UNAVAILABLE: Outcome(
        CODE_ERROR, 400, N_("Choose a payment method the ad accepts and the seller has set up")
    ),
    ErrorCode.P2P_UNPAID_EXISTS: Outcome(CODE_ERROR, 409, N_("You already have an unpaid order on this ad")),
    ErrorCode.P2P_CANCEL_LIMIT: Outcome(
        CODE_ERROR, 403, N_("You cancelled {limit} orders today; you can buy again after 00:00 UTC")
    ),
    ErrorCode.P2P_UNPAID_MAX: Outcome(
        CODE_ERROR, 409, N_("You have {max} orders waiting for payment: finish one before opening another")
    ),
    ErrorCode.P2P_MERCHANT_CANCEL_LIMIT: Outcome(CODE_ERROR, 409, N_("This merchant cannot buy any more today")),
    ErrorCode.P2P_ORDER_NOT_FOUND: Outcome(CODE_ERROR, 404, N_("Order not found")),
    ErrorCode.P2P_BUYER_ONLY: Outcome(CODE_ERROR, 403, N_("Only the buyer can do this")),
    ErrorCode.P2P_SELLER_ONLY: Outcome(CODE_ERROR, 403, N_("Only the seller can do this")),
    ErrorCode.P2P_NOT_UNPAID: Outcome(CODE_ERROR, 409, N_("Only an unpaid order can be marked paid or cancelled")),
    ErrorCode.P2P_NOT_PAID: Outcome(CODE_ERROR, 409, N_("Only a paid order can be released or appealed")),
    ErrorCode.P2P_WINDOW_OVER: Outcome(CODE_ERROR, 409, N_("The payment window has ended")),
    ErrorCode.P2P_NOT_IN_APPEAL: Outcome(CODE_ERROR, 409, N_("The order is not in appeal")),
    ErrorCode.P2P_REASON_INVALID: Outcome(CODE_ERROR, 400, N_("Describe the problem in 10 to 500 characters")),
    ErrorCode.P2P_IMAGES_INVALID: Outcome(CODE_ERROR, 400, N_("Attach at most 3 images")),
    ErrorCode.P2P_REPLY_OTHER_SIDE: Outcome(
        CODE_ERROR, 409, N_("Only the other side can answer this appeal; add to it by contacting support")
    ),
    ErrorCode.P2P_REPLIED: Outcome(CODE_ERROR, 409, N_("You have already answered this appeal")),
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
}
