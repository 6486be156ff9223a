# @spec SPEC-CURRENCY-001
"""Currency conversion at the cycle's fixed rate."""

from fractions import Fraction


def convert(amount, rate: Fraction) -> int:
    """Convert an amount in minor units, rounding half-even once."""
    return round(Fraction(amount) * rate)
