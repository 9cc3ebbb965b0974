"""The pure matching core of one trading pair: no Ray, no I/O, fixed-point integers inside.

``OrderBook`` matches; ``types`` holds the values it trades in and the ``Precision`` bridge to
``Decimal``; ``rounding`` is the spec's rounding rules (applied once, before ``Precision``);
``fees`` is the fee rule settlement applies to fills.
"""

from __future__ import annotations

from actors.book.order_book import OrderBook
from actors.book.types import Fill, Kind, Order, Precision, Side, SubmitResult

__all__ = ["Fill", "Kind", "Order", "OrderBook", "Precision", "Side", "SubmitResult"]
