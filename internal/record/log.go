package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// DefaultMax is how many records a log keeps unless told otherwise.
const DefaultMax = 1000

// RelPath is where a project's records are, relative to its root.
const RelPath = ".ctxpack/records.jsonl"

// lockWait is how long Append waits for another process's append.
const lockWait = 5 * time.Second

// Log is a records file.
type Log struct {
	Path string // an OS path
	Max  int    // records kept; 0 means DefaultMax
	// Name is how errors name the file; "" means Path.
	Name string
}

// ForRoot returns the log of the project at root: RelPath under it.
func ForRoot(root string) Log {
	return Log{Path: filepath.Join(root, filepath.FromSlash(RelPath)), Name: RelPath}
}

// LineError is a line of a records file that is not a record.
type LineError struct {
	Path string // as given to Decode
	Line int    // 1-based
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("record: %s:%d: not a budget record (%v); the line is skipped", e.Path, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Marshal returns r as one line of JSON (no newline), with no HTML
// escaping.
func Marshal(r Record) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("record: encode: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Append adds r to the end of the log, creating the file and its
// directory if missing; when the log would hold more than Max records, it
// is rewritten with the newest Max.
func (l Log) Append(r Record) error {
	line, err := Marshal(r)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	max := l.Max
	if max <= 0 {
		max = DefaultMax
	}
	dir := filepath.Dir(l.Path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("record: %w (the project is not writable: --no-record, or records: false in the config, stops recording)", err)
	}
	unlock, err := lockFile(l.Path+".lock", lockWait)
	if err != nil {
		return err
	}
	defer unlock()

	old, err := os.ReadFile(l.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record: %w", err)
	}
	partial := len(old) > 0 && old[len(old)-1] != '\n'
	if partial {
		old = append(old, '\n') // a line cut short by a crash stays a line of its own
	}
	if n := bytes.Count(old, []byte("\n")); n+1 > max {
		// Keep the newest max−1 lines and the new one.
		keep := old
		for drop := n + 1 - max; drop > 0; drop-- {
			keep = keep[bytes.IndexByte(keep, '\n')+1:]
		}
		return writeAtomic(l.Path, append(keep[:len(keep):len(keep)], line...))
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if partial {
		line = append([]byte("\n"), line...)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("record: write %s: %w", l.Path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("record: write %s: %w", l.Path, err)
	}
	return nil
}

// writeAtomic replaces the file at p with data through a temporary file.
func writeAtomic(p string, data []byte) error {
	// Named after the log, so that the project walk leaves it out too.
	f, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".tmp-*")
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("record: rotate %s: %w", p, werr)
	}
	return nil
}

// Read returns the log's records, oldest first, and the lines it skipped.
// A missing file has no records.
func (l Log) Read() ([]Record, []*LineError, error) {
	f, err := os.Open(l.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	name := l.Name
	if name == "" {
		name = l.Path
	}
	return Decode(f, name)
}

// Decode reads records, one JSON object per line, from r; name is the
// file they come from, for the errors. Blank lines are ignored; other
// lines that are not records are skipped and returned as *LineError.
func Decode(r io.Reader, name string) ([]Record, []*LineError, error) {
	br := bufio.NewReader(r)
	var recs []Record
	var bad []*LineError
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var rec Record
			if derr := decodeLine(line, &rec); derr != nil {
				bad = append(bad, &LineError{Path: name, Line: n, Err: derr})
			} else {
				recs = append(recs, rec)
			}
		}
		if errors.Is(err, io.EOF) {
			return recs, bad, nil
		}
		if err != nil {
			return recs, bad, fmt.Errorf("record: read %s: %w", name, err)
		}
	}
}

// decodeLine decodes one record strictly: unknown fields are allowed
// (records from later versions), but the line must be one JSON object
// with a timestamp and a mode.
func decodeLine(line []byte, rec *Record) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(rec); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one value on the line")
	}
	if rec.Timestamp == "" || rec.Mode == "" {
		return errors.New("no timestamp or mode")
	}
	return nil
}
