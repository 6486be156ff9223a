package store

import (
	"errors"
	"strings"
	"sync"
)

// Pool keeps the PostgreSQL stores a long-running server opens, so that
// each request does not connect, and check the schema, anew: one pool of
// connections a database, namespace and mode, for the server's life.
// SQLite stores are opened afresh each time (opening a file is cheap, and
// a file may be replaced between requests). The zero Pool is ready.
type Pool struct {
	mu     sync.Mutex
	stores map[string]*Store
	closed bool
}

// Open returns the store Open(location, opt) would. A PostgreSQL store is
// kept and returned again for the same location and options; its Close
// does nothing, and Pool.Close closes it. A read-only store of a database
// without the store's tables (or whose local commits file is missing) is
// not kept, so that it is seen once created.
func (p *Pool) Open(location string, opt Options) (*Store, error) {
	if !IsURL(location) {
		return Open(location, opt)
	}
	key := strings.Join([]string{location, opt.Namespace, strings.Join(opt.Shared, ","), opt.Password, opt.LocalCommits, boolKey(opt.ReadOnly)}, "\x00")
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("store: the pool is closed")
	}
	if s := p.stores[key]; s != nil {
		return s, nil
	}
	s, err := Open(location, opt)
	if err != nil || s.db == nil || s.local != nil && s.local.db == nil {
		return s, err
	}
	s.pooled = true
	if p.stores == nil {
		p.stores = map[string]*Store{}
	}
	p.stores[key] = s
	return s, nil
}

func boolKey(b bool) string {
	if b {
		return "ro"
	}
	return "rw"
}

// Close closes every store the pool keeps.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for _, s := range p.stores {
		s.pooled = false
		errs = append(errs, s.Close())
	}
	p.stores = nil
	return errors.Join(errs...)
}
