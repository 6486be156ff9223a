package billing

// vatRates are value-added tax rates by region code.
var vatRates = map[string]float64{"DE": 0.19, "FR": 0.20, "NL": 0.21, "UK": 0.20}

// TaxRate returns the VAT rate of a region, or 0 when it has none.
func TaxRate(region string) float64 {
	return vatRates[region]
}

// ApplyVAT adds the region's value-added tax to a net amount.
func ApplyVAT(net float64, region string) float64 {
	return net * (1 + TaxRate(region))
}
