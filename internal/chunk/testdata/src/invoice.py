#!/usr/bin/env python3
"""Invoices: totals, taxes and currency conversion.

Amounts are kept in minor units to avoid float drift.
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass, field

ROUNDING = decimal.ROUND_HALF_EVEN
RATES = {
    "EUR": decimal.Decimal("1.0"),
    "USD": decimal.Decimal("1.08"),
}


# Errors raised by this module.
class InvoiceError(Exception):
    """Raised when an invoice cannot be totalled."""


@dataclass
class Line:
    sku: str
    quantity: int
    unit_price: decimal.Decimal


@dataclass
class Invoice:
    """An invoice with lines in one currency."""

    currency: str
    lines: list[Line] = field(default_factory=list)

    def add(self, line: Line) -> None:
        """Append a line."""
        if line.quantity <= 0:
            raise InvoiceError(f"bad quantity {line.quantity}")
        self.lines.append(line)

    @property
    def total(self) -> decimal.Decimal:
        """The sum of all lines, rounded half-even."""
        s = sum((l.unit_price * l.quantity for l in self.lines), decimal.Decimal(0))
        return s.quantize(decimal.Decimal("0.01"), rounding=ROUNDING)

    async def convert(self, to: str,
                      rates=RATES) -> "Invoice":
        rate = rates[to] / rates[self.currency]
        return Invoice(to, [Line(l.sku, l.quantity, l.unit_price * rate) for l in self.lines])


def parse_amount(text: str) -> decimal.Decimal:
    # Accept "1,5" as well as "1.5".
    return decimal.Decimal(text.replace(",", "."))


if __name__ == "__main__":
    print(parse_amount("1,5"))
