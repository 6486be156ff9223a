package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/filelock"
)

// LockError is returned by Update when another process (or another Index
// in this one) kept the index locked for longer than Options.LockTimeout.
type LockError struct {
	Path   string        // the lock file
	Holder string        // what the holder wrote there: "pid 1234 (ctxpack index), since …"; may be ""
	Waited time.Duration // how long Update waited
}

func (e *LockError) Error() string {
	holder := e.Holder
	if holder == "" {
		holder = "holder unknown"
	}
	return fmt.Sprintf("index: another update holds %s (%s); gave up after %s", e.Path, holder, e.Waited.Round(time.Millisecond))
}

// updateLock is the exclusive lock an update holds: an advisory lock on
// the file next to the database (package filelock), which the operating
// system releases when the holder exits, however it exits. On systems
// where filelock cannot lock, concurrent updates are serialized by
// SQLite's write lock alone.
type updateLock struct{ f *os.File }

// lock takes the update lock of the index at dbPath, waiting up to timeout
// (polling), and calls waiting once with the holder's description if it
// has to wait.
func lock(ctx context.Context, dbPath string, timeout time.Duration, now func() time.Time, waiting func(holder string)) (*updateLock, error) {
	p := dbPath + ".lock"
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("index: lock: %w", err)
	}
	o := filelock.Options{Timeout: timeout, Poll: 50 * time.Millisecond}
	if waiting != nil {
		o.Waiting = func() { waiting(readHolder(p)) }
	}
	start := time.Now()
	if err := filelock.Lock(ctx, f, o); err != nil {
		f.Close()
		switch {
		case errors.Is(err, filelock.ErrLocked):
			return nil, &LockError{Path: p, Holder: readHolder(p), Waited: time.Since(start)}
		case ctx.Err() != nil && errors.Is(err, ctx.Err()):
			return nil, fmt.Errorf("index: waiting for %s: %w", p, err)
		}
		return nil, fmt.Errorf("index: lock %s: %w", p, err)
	}
	// Say who holds the lock, for whoever waits next. The lock file is not
	// the lock's state, only a note: a crash leaves a stale note behind and
	// no lock.
	note := fmt.Sprintf("pid %d (%s), since %s\n", os.Getpid(), processName(), now().Format(time.RFC3339))
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(note), 0)
	}
	return &updateLock{f: f}, nil
}

func (l *updateLock) unlock() {
	_ = l.f.Truncate(0)
	_ = filelock.Unlock(l.f)
	_ = l.f.Close()
}

func readHolder(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func processName() string {
	if len(os.Args) == 0 {
		return "?"
	}
	name := os.Args[0]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		name += " " + os.Args[1]
	}
	return name
}
