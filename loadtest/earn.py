"""Savers for the load test (issue 13): lock savings, mining, token sales and listing applications;
``locustfile.py`` runs them with the others."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from common import ApiUser
from locust import between, task
from locust.exception import StopUser

IN_PROGRESS, ENDED = 0, 1  # mining/orders' ``type``
MINING_ASSETS = {1: "USDT", 2: "ACB"}  # mining/buy's ``type`` -> the asset it takes


class Saver(ApiUser):
    """Moves USDT and ACB to its financial account, then browses the earn products and buys them:
    a lot of lock savings, a mining order (sometimes cancelled early, paying the penalty), a token-sale
    subscription while a sale is open, a listing application while a project is; reads its locks,
    mining orders and listing records. A refusal the product's rules make normal under load (a sold-out
    quota, a per-user cap, a closed window, funds spent) counts as a success of its call."""

    weight = 1
    wait_time = between(2, 5)
    NORMAL = (400, 409)  # business refusals: the product's limits, not the server's failures

    def on_start(self) -> None:
        self.sign_up({"USDT": "20000", "ACB": "20000"})
        currencies = {c["currency_code"]: c["currency_id"] for c in self._change_balances()}
        for code in ("USDT", "ACB"):
            if code not in currencies:
                raise StopUser  # this instance does not list the earn currencies
            move = {"currency_id": currencies[code], "balance": "15000", "from": "change_account",
                    "to": "financial_account"}  # fmt: skip
            self.api("POST", "account/transfer", json=move)

    def _change_balances(self) -> list[dict[str, Any]]:
        groups = self.api("GET", "account/list") or []
        for group in groups if isinstance(groups, list) else []:
            if group.get("account_code") == "change_account":
                return list(group.get("accounts") or [])
        return []

    @task(3)
    def browse(self) -> None:
        self.api("GET", "storage_currency/lock_list?limit=30", name="storage_currency/lock_list")
        self.api("GET", "mining/index")
        self.api("GET", f"shoufa/index?type={random.choice((99, 0, 1))}", name="shoufa/index")
        self.api("GET", "listing/index")

    @task(1)
    def lock(self) -> None:
        products = [p for p in self.api("GET", "storage_currency/lock_list?limit=30",
                                        name="storage_currency/lock_list") or [] if p.get("open", True)]  # fmt: skip
        if products:
            product = random.choice(products)
            self.api("POST", "storage_currency/submit_lock", json={"id": product["id"]}, expected=self.NORMAL)
        self.api("GET", "storage_currency/current_setting?limit=30", name="storage_currency/current_setting")

    @task(2)
    def mine(self) -> None:
        products = [p for p in (self.api("GET", "mining/index") or {}).get("list") or [] if int(p["status"]) == 1]
        if not products:
            return
        product = random.choice(products)
        kind = random.choice(tuple(MINING_ASSETS))
        self.api("GET", f"mining/info?id={product['id']}", name="mining/info")
        low, high = Decimal(product["mins"]), min(Decimal(product["maxs"]), Decimal(product["mins"]) * 3)
        nums = str(random.randint(int(low), max(int(low), int(high))))
        order = self.api("POST", "mining/buy", json={"id": product["id"], "nums": nums, "type": kind},
                         expected=self.NORMAL)  # fmt: skip
        if order:
            self.api("GET", f"mining/orders?page=1&type={IN_PROGRESS}", name="mining/orders")

    @task(1)
    def mining_orders_and_cancel(self) -> None:
        page = self.api("GET", f"mining/orders?page=1&type={IN_PROGRESS}", name="mining/orders") or {}
        active = [int(o["id"]) for o in page.get("list") or [] if int(o["status"]) == 0]
        if active and random.random() < 0.3:
            self.api("POST", "mining/cancel", json={"id": random.choice(active)}, expected=self.NORMAL)
        self.api("GET", f"mining/orders?page=1&type={ENDED}", name="mining/orders")

    @task(1)
    def subscribe(self) -> None:
        sales = [s for s in self.api("GET", "shoufa/index?type=0", name="shoufa/index") or []
                 if s.get("phase") == "open"]  # fmt: skip
        if not sales:
            return
        sale = random.choice(sales)
        self.api("GET", f"shoufa/info?id={sale['id']}", name="shoufa/info")
        step = Decimal(str(sale.get("step") or "1"))
        nums = Decimal(str(sale.get("min_nums") or step)) + step * random.randint(0, 20)  # the sale's minimum or more
        self.api("POST", "shoufa/buy", json={"id": sale["id"], "nums": str(nums)}, expected=self.NORMAL)

    @task(1)
    def apply_listing(self) -> None:
        projects = [p for p in (self.api("GET", "listing/index") or {}).get("list") or [] if int(p["status"]) == 1]
        if projects:
            project = random.choice(projects)
            self.api("GET", f"listing/info?id={project['id']}", name="listing/info")
            nums = str(random.randint(10, 200))
            self.api("POST", "listing/buy", json={"id": project["id"], "nums": nums}, expected=self.NORMAL)
        self.api("GET", "listing/orders?page=1", name="listing/orders")
