package embed

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack/internal/words"
)

// staticVersion is hashed into every Static ID: bump it whenever a change
// here (tokenization, pooling) changes the vectors of the same files.
//
//	2: text vectors look up a kebab-case word (words.Each) whole first
const staticVersion = "ctxpack static embedding 2"

// The files of a model2vec export that LoadStatic reads.
const (
	model2vecWeights   = "model.safetensors"
	model2vecTokenizer = "tokenizer.json"
)

// Static embeds texts with a table of token vectors the user supplies: the
// vector of a text is the mean of the vectors of its tokens that the table
// has, scaled to unit length (L2); a text with no such token gets the zero
// vector. It needs no server, is deterministic, and is safe for
// concurrent use.
type Static struct {
	id     string
	dim    int
	matrix []float32 // rows × dim

	tok   *hfTokenizer     // model2vec: tokenizer.json
	words map[string]int32 // text vectors: lower-cased token → row
}

// LoadStatic loads static embeddings from path, an OS path:
//
//   - a directory is a model2vec export: model.safetensors holds one 2-D
//     float32, float16 or bfloat16 tensor (named "embeddings", or the only
//     one), a row per token id, and tokenizer.json is the Hugging Face
//     tokenizer whose model.vocab gives the ids (WordPiece or Unigram;
//     see hfTokenizer for how text is cut into tokens);
//   - a file is a word2vec/GloVe text vectors file (".gz" for a gzipped
//     one): an optional "N D" header line, then "token v1 … vD" per line.
//     Text is cut into words and identifier pieces, looked up
//     lower-cased (see wordTokens).
//
// Errors name the file, and for text files the line (*LineError). Every
// size and offset read is bounded before it is used.
func LoadStatic(path string) (*Static, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("embed: static embeddings: %w", err)
	}
	h := sha256.New()
	io.WriteString(h, staticVersion+"\n")
	s := &Static{}
	if fi.IsDir() {
		err = s.loadModel2Vec(path, h)
	} else {
		err = s.loadTextVectors(path, h)
	}
	if err != nil {
		return nil, err
	}
	s.id = "static:sha256:" + hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// hashFileHeader adds a file's name and size to h; its bytes follow.
func hashFileHeader(h hash.Hash, name string, size int64) {
	fmt.Fprintf(h, "%s\n%d\n", name, size)
}

// hashingReaderAt reads a file of size bytes through r and adds its bytes
// to h in order, each once, as they are read: reads at increasing offsets
// (a safetensors header, then its tensor) hash the file in one pass, with
// the bytes they skip read and hashed on the way; finish hashes the rest.
type hashingReaderAt struct {
	r    io.ReaderAt
	h    hash.Hash
	size int64
	pos  int64 // the bytes before pos are hashed
}

func (hr *hashingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off > hr.pos {
		if err := hr.hashTo(off); err != nil {
			return 0, err
		}
	}
	n, err := hr.r.ReadAt(p, off)
	if off <= hr.pos && off+int64(n) > hr.pos {
		hr.h.Write(p[hr.pos-off : n])
		hr.pos = off + int64(n)
	}
	return n, err
}

// hashTo reads and hashes the bytes from pos up to end.
func (hr *hashingReaderAt) hashTo(end int64) error {
	n, err := io.Copy(hr.h, io.NewSectionReader(hr.r, hr.pos, end-hr.pos))
	hr.pos += n
	if err == nil && hr.pos != end {
		err = fmt.Errorf("read %d bytes, expected %d (changed while reading?)", hr.pos, hr.size)
	}
	return err
}

// finish hashes the bytes not read yet, and checks that the file still
// ends at size.
func (hr *hashingReaderAt) finish() error {
	if err := hr.hashTo(hr.size); err != nil {
		return err
	}
	var b [1]byte
	if n, _ := hr.r.ReadAt(b[:], hr.size); n > 0 {
		return fmt.Errorf("larger than the %d bytes expected (changed while reading?)", hr.size)
	}
	return nil
}

func (s *Static) loadModel2Vec(dir string, h hash.Hash) error {
	tokPath := filepath.Join(dir, model2vecTokenizer)
	data, err := readBounded(tokPath, maxTokenizerBytes)
	if err != nil {
		return err
	}
	s.tok, err = parseTokenizerJSON(data)
	if err != nil {
		return fmt.Errorf("embed: %s: %w", tokPath, err)
	}

	wPath := filepath.Join(dir, model2vecWeights)
	f, err := os.Open(wPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("embed: %s: no %s: a model2vec export directory holds %s and %s", dir, model2vecWeights, model2vecWeights, model2vecTokenizer)
		}
		return fmt.Errorf("embed: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	// The weights are hashed as they are read, in one pass over the file.
	hashFileHeader(h, model2vecWeights, fi.Size())
	r := &hashingReaderAt{r: f, h: h, size: fi.Size()}
	t, err := readSafetensors(r, fi.Size())
	if err != nil {
		return fmt.Errorf("embed: %s: %w", wPath, err)
	}
	if int(s.tok.maxID) >= t.rows {
		return fmt.Errorf("embed: %s: tokenizer.json has token id %d, but tensor %q has %d rows", wPath, s.tok.maxID, t.name, t.rows)
	}
	if s.matrix, err = readTensor(r, t); err != nil {
		return fmt.Errorf("embed: %s: %w", wPath, err)
	}
	s.dim = t.cols
	if err := r.finish(); err != nil {
		return fmt.Errorf("embed: %s: %w", wPath, err)
	}

	hashFileHeader(h, model2vecTokenizer, int64(len(data)))
	h.Write(data)
	return nil
}

// readBounded reads a whole file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("embed: %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("embed: %s: larger than %d bytes", path, limit)
	}
	return data, nil
}

func (s *Static) loadTextVectors(path string, h hash.Hash) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	defer f.Close()
	fmt.Fprintf(h, "%s\n", filepath.Base(path))
	var r io.Reader = io.TeeReader(f, h) // hash the bytes of the file as read
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("embed: %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	tv, err := parseTextVectors(r, path)
	if err != nil {
		return err
	}
	// Hash what the parser may have left unread (trailing bytes), so that
	// the ID covers the whole file.
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("embed: %s: %w", path, err)
	}
	s.words, s.matrix, s.dim = tv.vocab, tv.matrix, tv.dim
	return nil
}

// ID returns "static:sha256:…", a hash of the files' names, sizes and
// bytes and of the version of this code's tokenization and pooling.
func (s *Static) ID() string { return s.id }

// Embed returns the vector of each text (see Static).
func (s *Static) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	sum := make([]float64, s.dim)
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embed: %w", err)
			}
		}
		clear(sum)
		n := 0
		s.tokens(text, func(row int32) {
			for j, x := range s.matrix[int(row)*s.dim : int(row+1)*s.dim] {
				sum[j] += float64(x)
			}
			n++
		})
		out[i] = pool(sum, n)
	}
	return out, nil
}

// tokens calls f with the row of each token of text found in the table.
func (s *Static) tokens(text string, f func(row int32)) {
	if s.tok != nil {
		s.tok.tokenize(text, f)
		return
	}
	has := func(tok string) bool { _, ok := s.words[tok]; return ok }
	wordTokens(text, has, func(tok string) { f(s.words[tok]) })
}

// wordTokens calls f with the lower-cased lookup forms of text's words
// (package words) for a vocabulary: a word found whole stands for itself;
// else each of its hyphen-joined parts found whole does; else each piece
// of those found does (words.Split).
func wordTokens(text string, has func(string) bool, f func(tok string)) {
	found := func(w string) bool {
		lw := strings.ToLower(w)
		if has(lw) {
			f(lw)
			return true
		}
		return false
	}
	var pieces []string
	words.Each(text, func(word string) {
		if found(word) {
			return
		}
		for part := range strings.SplitSeq(word, "-") {
			if part != word && found(part) {
				continue
			}
			pieces = words.Split(part, pieces[:0])
			if len(pieces) == 1 && pieces[0] == part {
				continue // looked up whole already
			}
			for _, p := range pieces {
				found(p)
			}
		}
	})
}

// pool turns the sum of n token vectors into their mean scaled to unit
// length (the sum's direction), in float32; n = 0 gives the zero vector.
func pool(sum []float64, n int) []float32 {
	v := make([]float32, len(sum))
	if n == 0 {
		return v
	}
	var norm float64
	for _, x := range sum {
		norm += x * x
	}
	if norm == 0 {
		return v
	}
	inv := 1 / math.Sqrt(norm)
	for j, x := range sum {
		v[j] = float32(x * inv)
	}
	return v
}
