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

	"github.com/ctxpack/ctxpack/internal/project"
)

// DefaultMax is how many records a log keeps unless told otherwise.
const DefaultMax = 1000

// DefaultMaxBytes is how large a log may grow unless told otherwise:
// 10 MiB. A pack of a large tree makes a record of tens of kilobytes, so
// the byte bound, not the count, is the one such records meet.
const DefaultMaxBytes = 10 << 20

// RelPath is where a project's records are, relative to its root.
const RelPath = ".ctxpack/records.jsonl"

// lockWait is how long Append waits for another process's append.
const lockWait = 5 * time.Second

// Log is a records file.
type Log struct {
	Path string // an OS path
	Max  int    // records kept; 0 means DefaultMax
	// MaxBytes is the most the file may hold; 0 means DefaultMaxBytes.
	MaxBytes int64
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
// directory if missing. When the log would hold more than Max + Max/4
// lines, or more than MaxBytes bytes, it is rewritten with the newest
// records, at most Max of them in at most MaxBytes − MaxBytes/4 bytes: a
// rewrite reads and writes the whole file, so it happens once every Max/4
// appends or MaxBytes/4 bytes, not on each. The file never holds more
// than MaxBytes. A record whose line alone is over a quarter of MaxBytes
// is written without its per-part lists (Record.Slim), which keep only
// their counts.
//
// The lock file holds the log's size and line count as the last append
// left them, so an append reads neither the log nor anything but that
// note; when the log's size is not the noted one (another writer without
// the lock, an edit, a crash between the two writes), Append counts its
// lines again.
func (l Log) Append(r Record) error {
	maxBytes := l.maxBytes()
	keepBytes := maxBytes - maxBytes/4
	line, err := Marshal(r)
	if err == nil && int64(len(line)) >= maxBytes/4 {
		line, err = Marshal(r.Slim())
	}
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if int64(len(line)) > keepBytes {
		return fmt.Errorf("record: the record is %d bytes, more than %s keeps (%d bytes); it was not written", len(line), l.name(), keepBytes)
	}
	max := l.max()
	most := max + max/4
	dir := filepath.Dir(l.Path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("record: %w (the project is not writable: --no-record, or records: false in the config, stops recording)", err)
	}
	lk, err := openLock(l.Path+".lock", lockWait)
	if err != nil {
		return err
	}
	defer unlock(lk)

	var size int64
	if fi, err := os.Stat(l.Path); err == nil {
		if !fi.Mode().IsRegular() {
			// A named pipe would block the append, a device never end the
			// count of its lines.
			return fmt.Errorf("record: %s is %s, not a regular file: remove it, ctxpack keeps its records there", l.name(), project.FileKind(fi.Mode()))
		}
		size = fi.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record: %w", err)
	}
	n, known := readNote(lk, size)
	if !known || n+1 > most || size+int64(len(line)) > maxBytes {
		old, err := project.ReadPath(l.Path, 0) // a regular file, checked again on the file opened
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("record: %w", err)
		}
		size = int64(len(old))
		if len(old) > 0 && old[len(old)-1] != '\n' {
			// A line cut short by a crash stays a line of its own.
			old = append(old, '\n')
			line = append([]byte("\n"), line...)
		}
		n = bytes.Count(old, []byte("\n"))
		if n+1 > most || int64(len(old)+len(line)) > maxBytes {
			// Keep the newest lines, at most max−1 of them in at most
			// keepBytes with the new one.
			keep := old
			for drop := n + 1 - max; drop > 0; drop-- {
				keep = keep[bytes.IndexByte(keep, '\n')+1:]
			}
			line = bytes.TrimPrefix(line, []byte("\n"))
			for len(keep) > 0 && int64(len(keep)+len(line)) > keepBytes {
				keep = keep[bytes.IndexByte(keep, '\n')+1:]
			}
			data := append(keep[:len(keep):len(keep)], line...)
			if err := writeAtomic(l.Path, data); err != nil {
				return err
			}
			writeNote(lk, int64(len(data)), bytes.Count(data, []byte("\n")))
			return nil
		}
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("record: write %s: %w", l.Path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("record: write %s: %w", l.Path, err)
	}
	writeNote(lk, size+int64(len(line)), n+1)
	return nil
}

// name is how errors name the log.
func (l Log) name() string {
	if l.Name == "" {
		return l.Path
	}
	return l.Name
}

// max is how many records the log keeps.
func (l Log) max() int {
	if l.Max <= 0 {
		return DefaultMax
	}
	return l.Max
}

// maxBytes is how large the log may grow.
func (l Log) maxBytes() int64 {
	if l.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return l.MaxBytes
}

// readNote returns the line count noted in the lock file f, if the note is
// of a log of size bytes.
func readNote(f *os.File, size int64) (lines int, ok bool) {
	var buf [64]byte
	k, _ := f.ReadAt(buf[:], 0)
	var s int64
	if _, err := fmt.Sscanf(string(buf[:k]), "%d %d\n", &s, &lines); err != nil || s != size || lines < 0 {
		return 0, false
	}
	return lines, true
}

// writeNote notes in the lock file f that the log has size bytes in lines
// lines. A note that fails to be written is only a recount later.
func writeNote(f *os.File, size int64, lines int) {
	note := fmt.Appendf(nil, "%d %d\n", size, lines)
	if _, err := f.WriteAt(note, 0); err == nil {
		f.Truncate(int64(len(note)))
	}
}

// writeAtomic replaces the file at p with data through a temporary file,
// which takes p's permissions (CreateTemp makes it 0600).
func writeAtomic(p string, data []byte) error {
	// Named after the log, so that the project walk leaves it out too.
	if err := project.WriteFileAtomic(p, data, filepath.Base(p)+".tmp-*", 0o644); err != nil {
		return fmt.Errorf("record: rotate %s: %w", p, err)
	}
	return nil
}

// Read returns the log's newest Max records, oldest first, and the lines
// it skipped. A missing file has no records.
func (l Log) Read() ([]Record, []*LineError, error) {
	f, _, err := project.OpenRegular(project.DirFS(filepath.Dir(l.Path)), filepath.Base(l.Path), 0)
	var nr *project.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case errors.As(err, &nr):
		return nil, nil, fmt.Errorf("record: %s is %s", l.name(), nr.Reason())
	case err != nil:
		return nil, nil, fmt.Errorf("record: %s: %s", l.name(), project.ErrorText(err))
	}
	defer f.Close()
	recs, bad, err := Decode(f, l.name())
	if max := l.max(); len(recs) > max {
		recs = recs[len(recs)-max:]
	}
	return recs, bad, err
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
