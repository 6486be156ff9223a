package pack

import (
	"bufio"
	"encoding/hex"
	"hash"
	"io"
	"runtime"
	"strings"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// sink takes the content piece by piece: it counts it (tokenizer.Tally),
// hashes it for the digest and keeps it, or writes it to a writer and
// keeps none of it.
type sink struct {
	tally   *tokenizer.Tally
	h       hash.Hash
	content strings.Builder // when there is no writer
	w       *bufio.Writer   // to the writer, through the hash
	hw      *hashWriter
	scratch []byte
}

func newSink(tok tokenizer.Tokenizer, w io.Writer, chunker string) *sink {
	s := &sink{tally: tokenizer.NewTally(tok), h: digestHash(chunker)}
	if w != nil {
		s.hw = &hashWriter{h: s.h, w: w}
		s.w = bufio.NewWriterSize(s.hw, 64<<10)
	}
	return s
}

// add appends a piece of content; n is its token count when known, or -1.
func (s *sink) add(piece string, n int) {
	if piece == "" {
		return
	}
	s.tally.Add(piece, n)
	if s.w != nil {
		s.w.WriteString(piece) // an error stays in the writer: close reports it
		return
	}
	s.content.WriteString(piece)
	// Hashed through a small buffer: h.Write([]byte(piece)) would copy
	// the whole piece.
	if s.scratch == nil {
		s.scratch = make([]byte, 32<<10)
	}
	for len(piece) > 0 {
		k := copy(s.scratch, piece)
		s.h.Write(s.scratch[:k])
		piece = piece[k:]
	}
}

// close flushes what is buffered for the writer and reports the first
// error writing it.
func (s *sink) close() error {
	if s.w == nil {
		return nil
	}
	return s.w.Flush()
}

// digest is the plan's digest of the content (Digest).
func (s *sink) digest() string {
	return "sha256:" + hex.EncodeToString(s.h.Sum(nil))
}

// hashWriter writes to h, then to w.
type hashWriter struct {
	h hash.Hash
	w io.Writer
}

func (hw *hashWriter) Write(p []byte) (int, error) {
	hw.h.Write(p)
	return hw.w.Write(p)
}

// inOrder calls produce(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines, at most a few items ahead of consume, and consume(i, v) with
// each result in order of i, on the calling goroutine. So the results
// reach consume in the same order whatever the scheduling, and at most
// those few are held at once.
func inOrder[T any](n int, produce func(i int) T, consume func(i int, v T)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			consume(i, produce(i))
		}
		return
	}
	ahead := 4 * workers
	type slot struct {
		v    T
		done chan struct{}
	}
	slots := make([]slot, n)
	for i := range slots {
		slots[i].done = make(chan struct{})
	}
	room := make(chan struct{}, ahead) // one token per item produced, not yet consumed
	jobs := make(chan int)
	go func() {
		for i := range n {
			room <- struct{}{}
			jobs <- i
		}
		close(jobs)
	}()
	for range workers {
		go func() {
			for i := range jobs {
				slots[i].v = produce(i)
				close(slots[i].done)
			}
		}()
	}
	for i := range slots {
		<-slots[i].done
		v := slots[i].v
		var zero T
		slots[i].v = zero
		consume(i, v)
		<-room
	}
}
