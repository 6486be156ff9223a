package store

import (
	"container/list"
	"sync"
	"time"
)

// LRU is a least-recently-used cache whose entries expire after a TTL.
type LRU struct {
	mu    sync.Mutex
	max   int
	ttl   time.Duration
	order *list.List
	items map[string]*list.Element
}

type entry struct {
	key     string
	value   any
	expires time.Time
}

// Get returns a cached value, evicting it if its TTL has passed.
func (c *LRU) Get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*entry)
	if time.Now().After(e.expires) {
		c.order.Remove(el)
		delete(c.items, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.value, true
}

// Put stores a value, evicting the least recently used entry when full.
func (c *LRU) Put(key string, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.order.Len() >= c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*entry).key)
	}
	c.items[key] = c.order.PushFront(&entry{key: key, value: value, expires: time.Now().Add(c.ttl)})
}
