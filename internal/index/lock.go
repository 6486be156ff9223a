package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
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

// errLocked is what tryLock returns when the lock is held elsewhere.
var errLocked = errors.New("locked")

// updateLock is the exclusive lock an update holds: an advisory lock on
// the file next to the database, which the operating system releases when
// the holder exits, however it exits.
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
	start := time.Now()
	told := false
	for {
		err := tryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, errLocked) {
			f.Close()
			return nil, fmt.Errorf("index: lock %s: %w", p, err)
		}
		holder := readHolder(p)
		waited := time.Since(start)
		if timeout < 0 || waited >= timeout {
			f.Close()
			return nil, &LockError{Path: p, Holder: holder, Waited: waited}
		}
		if !told && waiting != nil {
			waiting(holder)
			told = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("index: waiting for %s: %w", p, ctx.Err())
		case <-time.After(min(50*time.Millisecond, timeout-waited)):
		}
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
	_ = unlockFile(l.f)
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
