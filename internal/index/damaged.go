package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ctxpack/ctxpack/internal/sqlitedb"
)

// DamagedError is a search or a read that found the database damaged
// (SQLite's SQLITE_CORRUPT or SQLITE_NOTADB). The index is marked: the
// next Update deletes it and builds it again, which loses nothing, since
// an index holds only what it derives from the project's files.
type DamagedError struct {
	Path string // the database file
	Err  error  // SQLite's error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("index: %s is damaged (%v); run 'ctxpack index', which builds it again (it holds only what is derived from the project's files)", e.Path, e.Err)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// damagedSuffix names the marker a read that found the database damaged
// leaves beside it ("index.db.damaged"), so that the next Update, in this
// process or another, rebuilds it: a damaged page that no update reads
// would otherwise let Update find nothing to do while every search fails.
const damagedSuffix = ".damaged"

// damaged turns err into a *DamagedError when SQLite found the database
// damaged, and marks the index so: in memory, and with the marker file
// (best effort: a read-only folder keeps none, and then the message still
// tells the truth). Other errors are returned as they are. Safe under
// ix.mu held for reading.
func (ix *Index) damaged(err error) error {
	if err == nil || !sqlitedb.IsCorrupt(err) {
		return err
	}
	var de *DamagedError
	if errors.As(err, &de) {
		return err
	}
	detail := damageDetail(err)
	ix.damage.Store(&detail)
	_ = os.WriteFile(ix.path+damagedSuffix, []byte(detail+"\n"), 0o666)
	return &DamagedError{Path: ix.path, Err: err}
}

// damageDetail is what State.Detail says of a damaged database: SQLite's
// own error, without what wrapped it.
func damageDetail(err error) string {
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(err) {
		err = u
	}
	return "damaged: " + err.Error()
}

// damagedState is the State of an index a read found damaged, by this
// Index or, through the marker file, by another; ok is false when none did.
func (ix *Index) damagedState() (State, bool) {
	if d := ix.damage.Load(); d != nil {
		return State{Reason: Corrupt, Detail: *d}, true
	}
	data, err := os.ReadFile(ix.path + damagedSuffix)
	if err != nil {
		return State{}, false
	}
	detail := strings.TrimSpace(string(data))
	if !strings.HasPrefix(detail, "damaged: ") {
		detail = "damaged: " + ix.path + damagedSuffix + " says so"
	}
	return State{Reason: Corrupt, Detail: detail}, true
}

// clearDamage forgets the damage once the database is gone. ix.mu is held.
func (ix *Index) clearDamage() error {
	ix.damage.Store(nil)
	if err := os.Remove(ix.path + damagedSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
