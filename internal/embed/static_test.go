package embed

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tokenStrings returns the tokens of text that the table has, in order,
// as the table names them.
func (s *Static) tokenStrings(text string) []string {
	names := s.rowNames()
	var out []string
	s.tokens(text, func(row int32) { out = append(out, names[row]) })
	return out
}

// rowNames maps rows to tokens (the first token of each row).
func (s *Static) rowNames() map[int32]string {
	names := make(map[int32]string)
	put := func(m map[string]int32, prefix string) {
		for tok, row := range m {
			if old, ok := names[row]; !ok || prefix+tok < old {
				names[row] = prefix + tok
			}
		}
	}
	if s.tok != nil {
		if s.tok.kind == unigram {
			put(s.tok.vocab, metaspace)
			put(s.tok.cont, "")
		} else {
			put(s.tok.vocab, "")
			put(s.tok.cont, s.tok.prefix)
		}
		return names
	}
	put(s.words, "")
	return names
}

// safetensorsFile returns a safetensors file: the header (JSON) and data.
func safetensorsFile(header string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint64(len(header)))
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

// matrixFile returns a safetensors file with one tensor, name, of the
// given rows in dtype (F32, F16 or BF16).
func matrixFile(name, dtype string, rows [][]float32) []byte {
	var data []byte
	for _, r := range rows {
		for _, x := range r {
			switch dtype {
			case "F32":
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
			case "F16":
				data = binary.LittleEndian.AppendUint16(data, toFloat16(x))
			case "BF16":
				data = binary.LittleEndian.AppendUint16(data, uint16(math.Float32bits(x)>>16))
			}
		}
	}
	header := fmt.Sprintf(`{"__metadata__": {"format": "pt"}, %q: {"dtype": %q, "shape": [%d, %d], "data_offsets": [0, %d]}}`,
		name, dtype, len(rows), len(rows[0]), len(data))
	return safetensorsFile(header, data)
}

// toFloat16 converts values that half precision holds exactly (tests
// only use those).
func toFloat16(x float32) uint16 {
	if x == 0 {
		return 0
	}
	bits := math.Float32bits(x)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23&0xff) - 127 + 15
	frac := uint16(bits>>13) & 0x3ff
	return sign | uint16(exp)<<10 | frac
}

// tinyRows are the token vectors of the test models: row i is a
// recognisable 4-vector.
func tinyRows(n int) [][]float32 {
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = []float32{float32(i), 1, float32(i % 3), -0.5}
	}
	return rows
}

const wordPieceJSON = `{
  "version": "1.0",
  "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
  "pre_tokenizer": {"type": "BertPreTokenizer"},
  "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
    "vocab": {"[UNK]": 0, "[PAD]": 1, "invoice": 2, "total": 3, "round": 4, "##ing": 5, "the": 6, "http": 7, "server": 8, ",": 9, "##s": 10, "中": 11, "Upper": 12}}
}`

const unigramJSON = `{
  "normalizer": {"type": "Sequence", "normalizers": [{"type": "Replace"}, {"type": "Precompiled"}]},
  "pre_tokenizer": {"type": "Metaspace", "replacement": "▁"},
  "model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["▁invoice", -1.5], ["▁total", -2], ["s", -3], ["▁", -4], ["x", -5], ["Total", -6]]}
}`

// writeModel2Vec writes a model2vec export directory and returns it.
func writeModel2Vec(t testing.TB, tokenizer string, weights []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(tokenizer), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), weights, 0o666); err != nil {
		t.Fatal(err)
	}
	return dir
}

// meanOf returns the unit mean of the given rows.
func meanOf(rows [][]float32, ids ...int) []float32 {
	sum := make([]float64, len(rows[0]))
	for _, id := range ids {
		for j, x := range rows[id] {
			sum[j] += float64(x)
		}
	}
	return pool(sum, len(ids))
}

func TestModel2VecWordPiece(t *testing.T) {
	rows := tinyRows(13)
	dir := writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", rows))
	s, err := LoadStatic(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"Rounding the invoice totals, HTTP!", []string{"round", "##ing", "the", "invoice", "total", "##s", ",", "http"}},
		{"roundx invoice", []string{"invoice"}}, // "x" matches no piece: the whole word is unknown
		{"the中server", []string{"the", "中", "server"}},
		{"upper Upper", nil}, // a lower-casing tokenizer never uses a piece with capitals
		{strings.Repeat("s", 101) + " the", []string{"the"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := s.tokenStrings(tt.text); !cmp.Equal(got, tt.want) {
			t.Errorf("tokens of %q = %q, want %q", tt.text, got, tt.want)
		}
	}
	vecs, err := s.Embed(context.Background(), []string{"Rounding the invoice", "zzz", "invoice"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{meanOf(rows, 4, 5, 6, 2), {0, 0, 0, 0}, meanOf(rows, 2)}
	if d := cmp.Diff(want, vecs); d != "" {
		t.Errorf("vectors (-want +got):\n%s", d)
	}
	if s.dim != 4 || !strings.HasPrefix(s.ID(), "static:sha256:") || len(s.ID()) != len("static:sha256:")+64 {
		t.Errorf("Dim %d, ID %q", s.dim, s.ID())
	}

	// The same files in another directory have the same ID; a change to
	// either file changes it.
	again, err := LoadStatic(writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", rows)))
	if err != nil || again.ID() != s.ID() {
		t.Errorf("ID of the same files: %v, %v; want %s", again, err, s.ID())
	}
	rows2 := tinyRows(13)
	rows2[3][0] = 42
	other, err := LoadStatic(writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", rows2)))
	if err != nil || other.ID() == s.ID() {
		t.Errorf("ID after a change to the weights: %v, %v", other, err)
	}
	other, err = LoadStatic(writeModel2Vec(t, strings.Replace(wordPieceJSON, `"lowercase": true`, `"lowercase": false`, 1), matrixFile("embeddings", "F32", rows)))
	if err != nil || other.ID() == s.ID() {
		t.Errorf("ID after a change to the tokenizer: %v, %v", other, err)
	}
	if got := other.tokenStrings("Upper upper"); !cmp.Equal(got, []string{"Upper"}) {
		t.Errorf("a cased tokenizer: tokens %q", got)
	}
}

func TestModel2VecDtypes(t *testing.T) {
	rows := tinyRows(13) // every value is exact in half precision and bfloat16
	f32, err := LoadStatic(writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", rows)))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := f32.Embed(context.Background(), []string{"the invoice totals"})
	for _, dtype := range []string{"F16", "BF16"} {
		s, err := LoadStatic(writeModel2Vec(t, wordPieceJSON, matrixFile("weights_only", dtype, rows)))
		if err != nil {
			t.Fatalf("%s: %v", dtype, err)
		}
		got, _ := s.Embed(context.Background(), []string{"the invoice totals"})
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-F32 +%s):\n%s", dtype, dtype, d)
		}
	}
}

func TestFloat16(t *testing.T) {
	for h, want := range map[uint16]float32{
		0x0000: 0, 0x8000: float32(math.Copysign(0, -1)), 0x3c00: 1, 0xc000: -2, 0x3800: 0.5,
		0x7bff: 65504, 0x0001: 5.9604645e-08, 0x03ff: 6.097555e-05, 0x0400: 6.1035156e-05,
		0x7c00: float32(math.Inf(1)), 0xfc00: float32(math.Inf(-1)),
	} {
		if got := float16(h); got != want || math.Signbit(float64(got)) != math.Signbit(float64(want)) {
			t.Errorf("float16(%#04x) = %v, want %v", h, got, want)
		}
	}
	if got := float16(0x7e00); !math.IsNaN(float64(got)) {
		t.Errorf("float16(0x7e00) = %v, want NaN", got)
	}
}

func TestModel2VecUnigram(t *testing.T) {
	rows := tinyRows(7)
	s, err := LoadStatic(writeModel2Vec(t, unigramJSON, matrixFile("embeddings", "F32", rows)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"invoice totals", []string{"▁invoice", "▁total", "s"}},
		{"xx  invoice", []string{"▁", "x", "x", "▁invoice"}},
		{"Totals", []string{"▁", "Total", "s"}},
		{"?", []string{"▁"}},
	}
	for _, tt := range tests {
		if got := s.tokenStrings(tt.text); !cmp.Equal(got, tt.want) {
			t.Errorf("tokens of %q = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestLoadStaticErrors(t *testing.T) {
	rows := tinyRows(13)
	good := matrixFile("embeddings", "F32", rows)
	tests := []struct {
		name      string
		tokenizer string
		weights   []byte // nil: no model.safetensors
		want      string // after "embed: DIR/"
	}{
		{"no weights", wordPieceJSON, nil, "DIR: no model.safetensors: a model2vec export directory holds model.safetensors and tokenizer.json"},
		{"short", wordPieceJSON, []byte{1, 2}, "model.safetensors: too short for a safetensors file"},
		{"header too long", wordPieceJSON, safetensorsFile("{}", nil)[:9], "model.safetensors: header length 2 does not fit the file (9 bytes) or exceeds 104857600"},
		{"header not json", wordPieceJSON, safetensorsFile("[1]", nil), "model.safetensors: header is not a JSON object: json: cannot unmarshal array into Go value of type map[string]json.RawMessage"},
		{"no tensor", wordPieceJSON, safetensorsFile(`{"__metadata__": {}}`, nil), "model.safetensors: no tensor"},
		{"two tensors", wordPieceJSON, safetensorsFile(`{"a": {}, "b": {}}`, nil), `model.safetensors: 2 tensors ("a", "b") and none named embeddings`},
		{"quantized", wordPieceJSON, safetensorsFile(`{"embeddings": {}, "mapping": {}}`, nil), `model.safetensors: tensors "mapping" besides embeddings are not supported (a vocabulary-quantized model2vec export?); export the model without them`},
		{"dtype", wordPieceJSON, safetensorsFile(`{"e": {"dtype": "I8", "shape": [1, 1], "data_offsets": [0, 1]}}`, []byte{0}), `model.safetensors: tensor "e" has dtype "I8"; want F32, F16 or BF16`},
		{"shape", wordPieceJSON, safetensorsFile(`{"e": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}`, make([]byte, 16)), `model.safetensors: tensor "e" has 1 dimensions; want 2 (tokens × components)`},
		{"huge shape", wordPieceJSON, safetensorsFile(`{"e": {"dtype": "F32", "shape": [9223372036854775807, 2], "data_offsets": [0, 16]}}`, make([]byte, 16)), `model.safetensors: tensor "e" has shape [9223372036854775807, 2]; want at least one row, 1 to 65536 columns and at most 1073741824 numbers`},
		{"offsets outside", wordPieceJSON, safetensorsFile(`{"e": {"dtype": "F32", "shape": [1, 4], "data_offsets": [0, 17]}}`, make([]byte, 16)), `model.safetensors: tensor "e": data_offsets [0, 17] are outside the 16 bytes of data`},
		{"offsets size", wordPieceJSON, safetensorsFile(`{"e": {"dtype": "F32", "shape": [1, 4], "data_offsets": [4, 16]}}`, make([]byte, 16)), `model.safetensors: tensor "e": data_offsets [4, 16] hold 12 bytes; shape [1, 4] of F32 needs 16`},
		{"NaN", wordPieceJSON, matrixFile("e", "F32", append(tinyRows(12), []float32{1, 2, float32(math.NaN()), 4})), `model.safetensors: tensor "e": row 12 holds NaN`},
		{"ids beyond rows", wordPieceJSON, matrixFile("embeddings", "F32", tinyRows(5)), `model.safetensors: tokenizer.json has token id 12, but tensor "embeddings" has 5 rows`},
		{"tokenizer not json", "{", good, "tokenizer.json: not a tokenizer.json: unexpected end of JSON input"},
		{"no vocab", `{"model": {"type": "WordPiece"}}`, good, "tokenizer.json: no model.vocab"},
		{"bpe", `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`, good, `tokenizer.json: model.type "BPE" is not supported; want WordPiece or Unigram`},
		{"negative id", `{"model": {"type": "WordPiece", "vocab": {"a": -1}}}`, good, `tokenizer.json: model.vocab: token "a" has id -1, not in [0, 16777216)`},
		{"unigram entry", `{"model": {"type": "Unigram", "vocab": [["a", 0], ["b"]]}}`, good, `tokenizer.json: model.vocab[1] is not [token, score]`},
		{"only unk", `{"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0}}}`, good, `tokenizer.json: model.vocab has no usable token`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(tt.tokenizer), 0o666)
			if tt.weights != nil {
				os.WriteFile(filepath.Join(dir, "model.safetensors"), tt.weights, 0o666)
			}
			_, err := LoadStatic(dir)
			want := "embed: " + strings.ReplaceAll(filepath.Join(dir, tt.want), filepath.Join(dir, "DIR"), dir)
			if err == nil || err.Error() != want {
				t.Errorf("error:\n got %v\nwant %s", err, want)
			}
		})
	}
	if _, err := LoadStatic(filepath.Join(t.TempDir(), "none")); err == nil || !strings.HasPrefix(err.Error(), "embed: static embeddings: ") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing path: %v", err)
	}
}

func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

const textVectorsFile = "4 3\nInvoice 1 0 0\ntotal 0 1 0\nround 0 0 1\nINVOICE 9 9 9\n"

func TestTextVectors(t *testing.T) {
	s, err := LoadStatic(writeFile(t, "vectors.txt", []byte(textVectorsFile)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"RoundTotal(invoice)", []string{"round", "total", "invoice"}},
		{"round_total, INVOICE", []string{"round", "total", "invoice"}},
		{"roundtotal xyz", nil},
		{"invoice2", []string{"invoice"}},
		{"round-total well-RoundTotal", []string{"round", "total", "round", "total"}},
	}
	for _, tt := range tests {
		if got := s.tokenStrings(tt.text); !cmp.Equal(got, tt.want) {
			t.Errorf("tokens of %q = %q, want %q", tt.text, got, tt.want)
		}
	}
	// A kebab-case word is looked up whole, then by its parts, then by
	// their pieces.
	kebab, err := LoadStatic(writeFile(t, "kebab.txt", []byte("well-known 1 0 0\nknown 0 1 0\nroundtotal 0 0 1\nround 1 1 0\n")))
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string][]string{
		"well-known":     {"well-known"},
		"un-known":       {"known"},
		"x-RoundTotal":   {"roundtotal"},
		"x-RoundTrip-up": {"round"},
	} {
		if got := kebab.tokenStrings(text); !cmp.Equal(got, want) {
			t.Errorf("tokens of %q = %q, want %q", text, got, want)
		}
	}
	vecs, err := s.Embed(context.Background(), []string{"RoundTotal(invoice)", "invoice", "nothing"})
	if err != nil {
		t.Fatal(err)
	}
	c := float32(1 / math.Sqrt(3))
	if d := cmp.Diff([][]float32{{c, c, c}, {1, 0, 0}, {0, 0, 0}}, vecs); d != "" {
		t.Errorf("vectors (-want +got):\n%s", d)
	}

	// A header is optional; a gzipped file reads the same; GloVe tokens
	// may hold spaces.
	plain, err := LoadStatic(writeFile(t, "glove.txt", []byte("invoice 1 0 0\n\n. . . 0 1 0\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	if plain.words[". . ."] != 1 || plain.dim != 3 {
		t.Errorf("words %v dim %d", plain.words, plain.dim)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(textVectorsFile))
	zw.Close()
	zs, err := LoadStatic(writeFile(t, "vectors.txt.gz", gz.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	zvecs, _ := zs.Embed(context.Background(), []string{"RoundTotal(invoice)", "invoice", "nothing"})
	if !cmp.Equal(vecs, zvecs) || zs.ID() == s.ID() {
		t.Errorf("gzipped: vectors %v, ID %s (plain %s)", zvecs, zs.ID(), s.ID())
	}
}

func TestTextVectorsErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // after "embed: FILE:"
	}{
		{"count", "2 3\na 1 2 3\n", "1: the header announces 2 vectors, the file has 1"},
		{"short line", "a 1 2\nb 1\n", "2: want a token and 2 values, found 2 fields"},
		{"long line", "2 2\na 1 2\nb 1 2 3\n", "3: want a token and 2 values, found 4 fields"},
		{"not a number", "a 1 x\n", `1: value 2 of "a" ("x") is not a finite number`},
		{"nan", "a 1 2\nb nan 2\n", `2: value 1 of "b" ("nan") is not a finite number`},
		{"inf", "a 1e39 2\n", `1: value 1 of "a" ("1e39") is not a finite number`},
		{"one field", "\nlonely\n", "2: want a token and its vector, found one field"},
		{"empty", "\n\n", "2: no vectors"},
		{"empty file", "", "1: no vectors"},
		{"bad header", "3 0\n", `1: header "3 0": want a vector count and 1 to 65536 components`},
		{"huge header", "1 99999999\n", `1: header "1 99999999": want a vector count and 1 to 65536 components`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "v.txt", []byte(tt.text))
			_, err := LoadStatic(p)
			var le *LineError
			if err == nil || err.Error() != "embed: "+p+":"+tt.want || !errors.As(err, &le) || le.Path != p {
				t.Errorf("error:\n got %v\nwant embed: %s:%s", err, p, tt.want)
			}
		})
	}
	p := writeFile(t, "long.txt", append([]byte("a "), bytes.Repeat([]byte("1 "), maxLineBytes)...))
	if _, err := LoadStatic(p); err == nil || err.Error() != "embed: "+p+":1: line longer than 4194304 bytes" {
		t.Errorf("long line: %v", err)
	}
}

func TestFromConfig(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "vectors.txt"), []byte(textVectorsFile), 0o666)
	env := map[string]string{"EMBED_KEY": "sekrit"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name   string
		cfg    Config
		wantID string // "" with no error: no embedder
		err    string
	}{
		{"none", Config{}, "", ""},
		{"http", Config{Provider: "http", URL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text", APIKeyEnv: "EMBED_KEY"},
			"http:nomic-embed-text@http://127.0.0.1:11434/v1;max_input_bytes=8192", ""},
		{"http limit", Config{Provider: "http", URL: "http://h/v1", Model: "m", MaxInputBytes: 100}, "http:m@http://h/v1;max_input_bytes=100", ""},
		{"key unset", Config{Provider: "http", URL: "http://h/v1", Model: "m", APIKeyEnv: "NOPE"}, "", "embed: embed.api_key_env names NOPE, which is not set"},
		{"http without url", Config{Provider: "http", Model: "m"}, "", "embed: provider http needs embed.url and embed.model"},
		{"static", Config{Provider: "static", Path: "vectors.txt"}, "static:", ""},
		{"static absolute", Config{Provider: "static", Path: filepath.ToSlash(filepath.Join(root, "vectors.txt"))}, "static:", ""},
		{"static without path", Config{Provider: "static"}, "", "embed: provider static needs embed.path"},
		{"static missing", Config{Provider: "static", Path: "nope.txt"}, "", "embed: static embeddings: stat " + filepath.Join(root, "nope.txt") + ": no such file or directory"},
		{"unknown", Config{Provider: "openai"}, "", `embed: unknown provider "openai"; want one of http, static`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := FromConfig(tt.cfg, root, getenv)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantID == "" {
				if e != nil {
					t.Errorf("embedder %v, want none", e)
				}
				return
			}
			if e == nil || !strings.HasPrefix(e.ID(), tt.wantID) {
				t.Errorf("embedder %v, want ID %s…", e, tt.wantID)
			}
		})
	}
}

// TestStaticConcurrent embeds from several goroutines (run with -race).
func TestStaticConcurrent(t *testing.T) {
	s, err := LoadStatic(writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", tinyRows(13))))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := s.Embed(context.Background(), []string{"the invoice", "round server"})
	done := make(chan [][]float32)
	for range 4 {
		go func() {
			got, _ := s.Embed(context.Background(), []string{"the invoice", "round server"})
			done <- got
		}()
	}
	for range 4 {
		if got := <-done; !cmp.Equal(got, want) {
			t.Errorf("concurrent Embed = %v, want %v", got, want)
		}
	}
}

// TestStaticShared: a long-lived process loads a model once, and again
// when its files change.
func TestStaticShared(t *testing.T) {
	rows := tinyRows(13)
	dir := writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", rows))
	a, err := loadStaticShared(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadStaticShared(dir)
	if err != nil || b != a {
		t.Fatalf("a second load of unchanged files: %p, %v; want the first, %p", b, err, a)
	}
	rows[3][0] = 42
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), matrixFile("embeddings", "F32", rows), 0o666); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "model.safetensors"), later, later); err != nil {
		t.Fatal(err)
	}
	c, err := loadStaticShared(dir)
	if err != nil || c == a || c.ID() == a.ID() {
		t.Errorf("after a change to the weights: %v, %v; want a new model", c, err)
	}
}

// TestStaticSharedConcurrent: requests that arrive together load a model
// once.
func TestStaticSharedConcurrent(t *testing.T) {
	dir := writeModel2Vec(t, wordPieceJSON, matrixFile("embeddings", "F32", tinyRows(13)))
	got := make(chan *Static)
	for range 8 {
		go func() {
			s, _ := loadStaticShared(dir)
			got <- s
		}()
	}
	first := <-got
	for range 7 {
		if s := <-got; s == nil || s != first {
			t.Errorf("concurrent loads gave %p and %p; want one model", first, s)
		}
	}
}

// TestModel2VecID: the ID hashes the version, then each file's name, size
// and bytes, the weights first; the weights are hashed as they are read,
// including bytes before and after the tensor, and over several reads.
func TestModel2VecID(t *testing.T) {
	for _, n := range []int{13, 70000} { // 70000 rows of 4 float32: more than one read
		var data []byte
		for _, r := range tinyRows(n) {
			for _, x := range r {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
			}
		}
		pad, tail := []byte("padding!"), []byte("trailing bytes..")
		header := fmt.Sprintf(`{"embeddings": {"dtype": "F32", "shape": [%d, 4], "data_offsets": [%d, %d]}}`, n, len(pad), len(pad)+len(data))
		weights := safetensorsFile(header, slices.Concat(pad, data, tail))
		s, err := LoadStatic(writeModel2Vec(t, wordPieceJSON, weights))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		fmt.Fprintf(h, "%s\n", staticVersion)
		fmt.Fprintf(h, "model.safetensors\n%d\n%s", len(weights), weights)
		fmt.Fprintf(h, "tokenizer.json\n%d\n%s", len(wordPieceJSON), wordPieceJSON)
		if want := "static:sha256:" + hex.EncodeToString(h.Sum(nil)); s.ID() != want {
			t.Errorf("%d rows: ID %s, want %s", n, s.ID(), want)
		}
		if len(s.matrix) != 4*n || s.matrix[4*(n-1)] != float32(n-1) {
			t.Errorf("%d rows: matrix of %d numbers", n, len(s.matrix))
		}
	}
}
