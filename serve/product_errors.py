"""The products' answers to their domain errors (leveraged contracts, second contracts, lock savings,
mining, token sales, listing applications, the operator's products, the P2P market): envelope code,
HTTP status and translatable message. serve/error_table.py adds them to the one ``ERRORS`` table."""

from __future__ import annotations

from serve.i18n import N_
from serve.outcome import CODE_ERROR, Outcome
from store.errors import ErrorCode

PRODUCT_ERRORS: dict[ErrorCode, Outcome] = {
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
}
