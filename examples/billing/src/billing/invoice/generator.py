# @spec SPEC-BILLING-001
"""Invoice generation: totals in minor units, rendered on the job queue."""

from decimal import ROUND_HALF_EVEN, Decimal


def invoice_total(lines, tax_rate):
    """Sum the lines in minor units and add tax, rounded half-even once."""
    subtotal = sum(line.amount for line in lines)
    tax = (Decimal(subtotal) * Decimal(tax_rate)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
    return subtotal + int(tax)
