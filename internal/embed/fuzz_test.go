package embed

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"
)

// FuzzSafetensorsHeader reads arbitrary files as safetensors: no panic,
// and a tensor the header accepts lies inside the file and reads whole.
func FuzzSafetensorsHeader(f *testing.F) {
	f.Add(matrixFile("embeddings", "F32", tinyRows(3)))
	f.Add(matrixFile("x", "F16", tinyRows(2)))
	f.Add(matrixFile("x", "BF16", tinyRows(1)))
	f.Add(safetensorsFile(`{"e": {"dtype": "F32", "shape": [1, 4], "data_offsets": [0, 17]}}`, make([]byte, 16)))
	f.Add(safetensorsFile(`{"e": {"dtype": "F32", "shape": [4611686018427387904, 4], "data_offsets": [0, 16]}}`, make([]byte, 16)))
	f.Add(safetensorsFile(`{"embeddings": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}, "mapping": {}}`, make([]byte, 4)))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, '{'})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		ti, err := readSafetensors(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		if ti.begin < 8 || ti.end > int64(len(data)) || ti.end-ti.begin != int64(ti.rows*ti.cols*dtypeSize(ti.dtype)) {
			t.Fatalf("accepted a tensor outside the file: %+v (file %d bytes)", ti, len(data))
		}
		m, err := readTensor(bytes.NewReader(data), ti)
		if err != nil {
			return // NaN or infinity
		}
		if len(m) != ti.rows*ti.cols {
			t.Fatalf("read %d numbers for shape [%d, %d]", len(m), ti.rows, ti.cols)
		}
		for _, x := range m {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("readTensor let %v through", x)
			}
		}
	})
}

// FuzzTokenizerJSON parses arbitrary tokenizer.json files and tokenizes
// arbitrary text with those that parse: no panic, ids within the
// vocabulary, the same tokens every time.
func FuzzTokenizerJSON(f *testing.F) {
	f.Add([]byte(wordPieceJSON), "Rounding the invoice totals, HTTP!")
	f.Add([]byte(unigramJSON), "xx invoice totals")
	f.Add([]byte(`{"normalizer": {"type": "Sequence", "normalizers": [{"type": "Lowercase"}]}, "model": {"vocab": {"a": 0, "##b": 1, "##": 2}}}`), "ab abb a##b")
	f.Add([]byte(`{"model": {"type": "WordPiece", "continuing_subword_prefix": "", "vocab": {"a": 0, "b": 1}}}`), "abba")
	f.Add([]byte(`{"model": {"vocab": [["▁", 0], ["a", 1]]}}`), "a a\u00a0a")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		if len(data) > 1<<16 || len(text) > 1<<12 {
			return
		}
		tok, err := parseTokenizerJSON(data)
		if err != nil {
			return
		}
		var ids []int32
		tok.tokenize(text, func(id int32) {
			if id < 0 || id > tok.maxID {
				t.Fatalf("id %d outside [0, %d]", id, tok.maxID)
			}
			ids = append(ids, id)
		})
		var again []int32
		tok.tokenize(text, func(id int32) { again = append(again, id) })
		if !slices.Equal(ids, again) {
			t.Fatalf("tokens differ between runs: %v, %v", ids, again)
		}
	})
}

// FuzzTextVectors parses arbitrary text vectors files and embeds
// arbitrary text with those that parse: no panic, rows in range, and a
// unit or zero vector, the same every time.
func FuzzTextVectors(f *testing.F) {
	f.Add([]byte(textVectorsFile), "RoundTotal(invoice)")
	f.Add([]byte("invoice 1 0 0\n\n. . . 0 1 0\r\n"), ". . . invoice")
	f.Add([]byte("2 2\na 1 2\nb 1 2 3\n"), "a b")
	f.Add([]byte("1 1\n3 1\n"), "3")
	f.Add([]byte("a 1e38 1e38\n"), "a a a")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		if len(data) > 1<<16 || len(text) > 1<<12 {
			return
		}
		tv, err := parseTextVectors(bytes.NewReader(data), "v.txt")
		if err != nil {
			if _, ok := err.(*LineError); !ok {
				t.Fatalf("error %v is not a *LineError", err)
			}
			return
		}
		if tv.dim < 1 || len(tv.matrix)%tv.dim != 0 {
			t.Fatalf("dim %d, %d numbers", tv.dim, len(tv.matrix))
		}
		for tok, row := range tv.vocab {
			if row < 0 || int(row) >= len(tv.matrix)/tv.dim {
				t.Fatalf("token %q has row %d of %d", tok, row, len(tv.matrix)/tv.dim)
			}
		}
		s := &Static{words: tv.vocab, matrix: tv.matrix, dim: tv.dim}
		v1, err := s.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatal(err)
		}
		v2, _ := s.Embed(context.Background(), []string{text})
		if !slices.Equal(v1[0], v2[0]) {
			t.Fatalf("vectors differ between runs")
		}
		var norm float64
		for _, x := range v1[0] {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("vector holds %v", x)
			}
			norm += float64(x) * float64(x)
		}
		if norm != 0 && math.Abs(norm-1) > 1e-5 {
			t.Fatalf("norm² %v, want 1 or 0", norm)
		}
	})
}
