package billing

import "math"

// Line is one line of an invoice.
type Line struct {
	SKU      string
	Quantity int
	Price    float64 // unit price in the invoice currency
}

// Invoice is a bill sent to a customer.
type Invoice struct {
	Customer string
	Currency string
	Lines    []Line
}

// AddLine appends a line to the invoice.
func (inv *Invoice) AddLine(sku string, qty int, price float64) {
	inv.Lines = append(inv.Lines, Line{SKU: sku, Quantity: qty, Price: price})
}

// Total is the sum of the lines, before rounding.
func (inv *Invoice) Total() float64 {
	var t float64
	for _, l := range inv.Lines {
		t += float64(l.Quantity) * l.Price
	}
	return t
}

// RoundTotal rounds the invoice total to the cent, half away from zero.
func RoundTotal(inv *Invoice) float64 {
	return math.Round(inv.Total()*100) / 100
}
