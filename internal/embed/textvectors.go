package embed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// maxLineBytes bounds a line of a text vectors file.
const maxLineBytes = 4 << 20

// textVectors is a parsed word2vec/GloVe text file.
type textVectors struct {
	vocab  map[string]int32 // lower-cased token → row
	matrix []float32        // rows × dim
	dim    int
}

// LineError is a problem at a line of a text vectors file.
type LineError struct {
	Path string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return "embed: " + e.Path + ":" + strconv.Itoa(e.Line) + ": " + e.Err.Error()
}

func (e *LineError) Unwrap() error { return e.Err }

// parseTextVectors reads the word2vec/GloVe text format from r: an
// optional header line "N D" (N vectors of D components), then one line
// per token, "token v1 … vD", fields separated by spaces or tabs. Without a
// header, D is the first line's field count less one. A token may hold
// spaces (as some GloVe files have): it is everything before the last D
// fields, unless the field just before them is a number, which means the
// line has too many values. Blank lines are skipped. Tokens are looked up lower-cased; when
// two lower-case to the same form, the first in the file wins. Every value
// must be a finite number; errors are *LineError.
func parseTextVectors(r io.Reader, name string) (*textVectors, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	tv := &textVectors{vocab: make(map[string]int32)}
	line, headerLine, declared, count := 0, 0, -1, 0
	lineErr := func(format string, args ...any) error {
		return &LineError{Path: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	isSpace := func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' }
	for sc.Scan() {
		line++
		fields := strings.FieldsFunc(sc.Text(), isSpace)
		if len(fields) == 0 {
			continue
		}
		if tv.dim == 0 && declared < 0 && len(fields) == 2 {
			n, err1 := strconv.ParseInt(fields[0], 10, 64)
			d, err2 := strconv.ParseInt(fields[1], 10, 64)
			if err1 == nil && err2 == nil {
				if n < 0 || d < 1 || d > maxDim {
					return nil, lineErr("header %q: want a vector count and 1 to %d components", fields[0]+" "+fields[1], maxDim)
				}
				declared, tv.dim, headerLine = int(min(n, math.MaxInt32)), int(d), line
				continue
			}
		}
		if tv.dim == 0 {
			tv.dim = len(fields) - 1
			if tv.dim < 1 {
				return nil, lineErr("want a token and its vector, found one field")
			}
			if tv.dim > maxDim {
				return nil, lineErr("%d components, more than %d", tv.dim, maxDim)
			}
		}
		if len(fields) < tv.dim+1 {
			return nil, lineErr("want a token and %d values, found %d fields", tv.dim, len(fields))
		}
		if len(tv.matrix)/tv.dim >= maxElements/tv.dim {
			return nil, lineErr("more than %d numbers in the file", maxElements)
		}
		split := len(fields) - tv.dim
		if split > 1 {
			if _, err := strconv.ParseFloat(fields[split-1], 64); err == nil {
				return nil, lineErr("want a token and %d values, found %d fields", tv.dim, len(fields))
			}
		}
		token := strings.ToLower(strings.Join(fields[:split], " "))
		_, dup := tv.vocab[token]
		if !dup {
			tv.vocab[token] = int32(len(tv.matrix) / tv.dim)
		}
		for i, f := range fields[split:] {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, lineErr("value %d of %q (%q) is not a finite number", i+1, oneLine(token, 40), oneLine(f, 40))
			}
			if !dup {
				tv.matrix = append(tv.matrix, float32(x))
			}
		}
		count++
	}
	if err := sc.Err(); err != nil {
		line++
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, lineErr("line longer than %d bytes", maxLineBytes)
		}
		return nil, &LineError{Path: name, Line: line, Err: err}
	}
	if declared >= 0 && count != declared {
		line = headerLine
		return nil, lineErr("the header announces %d vectors, the file has %d", declared, count)
	}
	if count == 0 {
		return nil, &LineError{Path: name, Line: max(line, 1), Err: errors.New("no vectors")}
	}
	return tv, nil
}
