package metrics

import "github.com/prometheus/client_golang/prometheus"

var (
	// RequestDuration is a histogram of HTTP request latency in seconds.
	RequestDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "shop_request_duration_seconds",
		Help:    "HTTP request latency.",
		Buckets: prometheus.DefBuckets,
	}, []string{"route", "code"})

	// OrdersTotal counts orders placed.
	OrdersTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "shop_orders_total",
		Help: "Orders placed.",
	})
)

// Register registers the shop's metrics with the default registry.
func Register() {
	prometheus.MustRegister(RequestDuration, OrdersTotal)
}
