package billing

import "testing"

func TestRoundTotalHalfCent(t *testing.T) {
	inv := &Invoice{Currency: "EUR"}
	inv.AddLine("A-1", 3, 0.335)
	if got := RoundTotal(inv); got != 1.01 {
		t.Errorf("RoundTotal = %v, want 1.01", got)
	}
}

func TestEmptyInvoice(t *testing.T) {
	if got := RoundTotal(&Invoice{}); got != 0 {
		t.Errorf("empty invoice total %v", got)
	}
}
