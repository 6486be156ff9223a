package ratelimit

import (
	"sync"
	"time"
)

// RateLimiter is a token bucket: it holds up to Burst tokens and refills at
// Rate tokens per second.
type RateLimiter struct {
	mu     sync.Mutex
	Rate   float64
	Burst  float64
	tokens float64
	last   time.Time
}

// Allow reports whether one more request may go now, taking a token.
func (l *RateLimiter) Allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	l.tokens = min(l.Burst, l.tokens+now.Sub(l.last).Seconds()*l.Rate)
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}
