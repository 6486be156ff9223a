// Copyright 2024 The Billing Authors. All rights reserved.

// Package money does arithmetic on amounts of money.
//
// Amounts are integers of minor units; rounding is half-even.
package money

import (
	"errors"
	"fmt"
	"math"
)

// ErrCurrency is returned when two amounts are in different currencies.
var ErrCurrency = errors.New("money: currencies differ")

// Currencies we know.
const (
	EUR Currency = "EUR"
	USD Currency = "USD"
)

// Currency is an ISO 4217 code.
type Currency string

// Amount is an amount of money.
type Amount struct {
	Minor    int64    // minor units
	Currency Currency // ISO code
}

// Converter converts amounts.
type Converter interface {
	Convert(a Amount, to Currency) (Amount, error)
}

// Add returns a+b.
func Add(a, b Amount) (Amount, error) {
	if a.Currency != b.Currency {
		return Amount{}, ErrCurrency
	}
	return Amount{a.Minor + b.Minor, a.Currency}, nil
}

// String formats the amount: "12.34 EUR".
func (a Amount) String() string {
	return fmt.Sprintf("%d.%02d %s", a.Minor/100, a.Minor%100, a.Currency)
}

// Scale multiplies by f, rounding half to even.
func (a *Amount) Scale(f float64) {
	a.Minor = int64(math.RoundToEven(float64(a.Minor) * f))
}

type table[K comparable, V any] struct{ m map[K]V }

func (t *table[K, V]) Get(k K) V { return t.m[k] } // generic receiver

var rates = map[Currency]float64{
	EUR: 1,
	USD: 1.08,
}
