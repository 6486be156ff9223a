"""Monthly sales reports, exported as CSV."""

import csv
from collections import defaultdict


def monthly_sales(orders):
    totals = defaultdict(float)
    for order in orders:
        totals[order["date"][:7]] += order["amount"]
    return dict(sorted(totals.items()))


def export_csv(path, orders):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["month", "sales"])
        for month, total in monthly_sales(orders).items():
            writer.writerow([month, f"{total:.2f}"])
