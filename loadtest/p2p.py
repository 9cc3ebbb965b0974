"""P2P traders for the load test (issue 14): merchants post sell and buy ads and release what their
takers paid; takers browse the market, open orders, mark them paid, sometimes cancel, appeal or let
the window lapse (the Scheduler's sweep cancels them). ``locustfile.py`` runs them with the others.

Each user verifies itself through the development helpers (``dev/verify``, ``dev/merchant``), so the
instance must be in development mode, as for ``dev/credit``."""

from __future__ import annotations

import random
import uuid
from decimal import ROUND_DOWN, Decimal
from typing import Any

from common import ApiUser
from locust import between, task

DEAL = "Deal12345"
FIATS = {"CNY": Decimal("7.2"), "USD": Decimal(1)}  # the USDT price each fiat is quoted around


class P2PTrader(ApiUser):
    """One in three is a merchant with a sell and a buy ad in USDT; the others take orders on any ad.
    Refusals the market's rules make normal under load (stock taken meanwhile, the daily cancellation
    limit, an order another step moved on) count as successes of their call."""

    weight = 1
    wait_time = between(2, 5)
    NORMAL = (400, 403, 404, 409)

    def on_start(self) -> None:
        self.sign_up({"USDT": "20000"})
        self.api("POST", "account/transfer", json={"currency_id": 1, "balance": "15000", "from": "change_account",
                                                   "to": "legal_account"})  # fmt: skip
        self.api("POST", "dev/verify", json={"name": f"Load {uuid.uuid4().hex[:6]}", "pay_password": DEAL})
        name = (self.api("GET", "user_real/center") or {}).get("name", "")
        bank = {"real_name": name, "bank_name": "Load Bank", "bank_address": "Branch", "card_no": "6222000011112222"}
        self.api("POST", "pay_method/save", json={"type": "bank", "raw_data": bank})
        self.merchant = random.random() < 1 / 3
        if self.merchant:
            self.api("POST", "merchant/apply", json={"nickname": f"L{uuid.uuid4().hex[:10]}"})
            self.api("POST", "dev/merchant")
            fiat = random.choice(tuple(FIATS))
            for side, offset in ((1, Decimal("1.01")), (2, Decimal("0.99"))):
                price = (FIATS[fiat] * offset).quantize(Decimal("0.01"))
                ad = {"side": side, "currency_id": 1, "fiat": fiat, "price": str(price), "min_fiat": "10",
                      "max_fiat": "2000", "total": "3000", "methods": ["bank"], "window_min": 10}  # fmt: skip
                self.api("POST", "shop/ad/save", json=ad, expected=self.NORMAL)

    @task(3)
    def browse(self) -> None:
        side = random.choice(("buy", "sell"))
        self.api("GET", f"legal/ads?side={side}&currency_id=1&fiat={random.choice(tuple(FIATS))}", name="legal/ads")

    @task(2)
    def take(self) -> None:
        if self.merchant:
            return
        side = random.choice(("buy", "sell"))
        page = self.api("GET", f"legal/ads?side={side}&currency_id=1", name="legal/ads") or {}
        ads = [a for a in page.get("list") or [] if "bank" in a["methods"]]
        if not ads:
            return
        ad = random.choice(ads)
        low, high = Decimal(ad["min_fiat"]), min(Decimal(ad["max_now"]), Decimal(ad["min_fiat"]) * 5)
        fiat = (low + (high - low) * Decimal(random.random())).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
        order = self.api("POST", "legal/order/create", json={"ad_id": ad["id"], "fiat_amount": str(fiat),
                                                            "pay_method": "bank"}, expected=self.NORMAL)  # fmt: skip
        if order and order["role"] == "buyer":
            self._after_opening(order)

    def _after_opening(self, order: dict[str, Any]) -> None:
        roll = random.random()
        if roll < 0.75:
            self.api("POST", "legal/order/paid", json={"id": order["id"]}, expected=self.NORMAL)
        elif roll < 0.9:
            self.api("POST", "legal/order/cancel", json={"id": order["id"]}, expected=self.NORMAL)
        # otherwise the window lapses and the Scheduler cancels it

    @task(2)
    def settle(self) -> None:
        """Release what buyers paid (as a merchant on a sell ad, or a taker who sold into a buy ad; the
        merchant on a buy ad marks paid); now and then appeal instead."""
        path = "shop/orders" if self.merchant else "legal/orders"
        for state, name in ((2, path), (1, path)):
            page = self.api("GET", f"{path}?state={state}&page=1", name=name) or {}
            for order in page.get("list") or []:
                if state == 2 and order["role"] == "seller":
                    if random.random() < 0.05:
                        body = {"id": order["id"], "reason": "the payment has not arrived yet"}
                        self.api("POST", "legal/order/appeal", json=body, expected=self.NORMAL)
                    else:
                        body = {"id": order["id"], "pay_password": DEAL}
                        self.api("POST", "legal/order/release", json=body, expected=self.NORMAL)
                elif state == 1 and order["role"] == "buyer" and self.merchant:
                    self.api("POST", "legal/order/paid", json={"id": order["id"]}, expected=self.NORMAL)

    @task(1)
    def restock(self) -> None:
        if not self.merchant:
            return
        for ad in self.api("GET", "shop/ads?status=1", name="shop/ads") or []:
            if Decimal(ad["stock"]) < 500:
                edit = {k: ad[k] for k in ("side", "currency_id", "fiat", "price", "min_fiat", "max_fiat", "methods",
                                           "window_min", "remarks")}  # fmt: skip
                edit.update(id=ad["id"], total=str(Decimal(ad["total"]) + 1000))
                self.api("POST", "shop/ad/save", json=edit, expected=self.NORMAL)
