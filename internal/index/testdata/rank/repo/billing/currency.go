package billing

import "fmt"

// rates holds exchange rates against the euro.
var rates = map[string]float64{"EUR": 1, "USD": 1.08, "GBP": 0.85, "JPY": 161.2}

// RateFor returns the exchange rate from one currency to another.
func RateFor(from, to string) (float64, error) {
	f, ok := rates[from]
	if !ok {
		return 0, fmt.Errorf("unknown currency %s", from)
	}
	t, ok := rates[to]
	if !ok {
		return 0, fmt.Errorf("unknown currency %s", to)
	}
	return t / f, nil
}

// ConvertAmount converts an amount between currencies at today's rate.
func ConvertAmount(amount float64, from, to string) (float64, error) {
	r, err := RateFor(from, to)
	if err != nil {
		return 0, err
	}
	return amount * r, nil
}
