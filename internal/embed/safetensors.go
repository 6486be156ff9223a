package embed

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Bounds on what LoadStatic reads.
const (
	maxHeaderBytes = 100 << 20 // a safetensors JSON header (the format's own limit)
	maxDim         = 1 << 16   // components of a vector
	maxElements    = 1 << 30   // numbers in a matrix (4 GiB as float32)
)

// tensorInfo is the tensor LoadStatic reads from a safetensors file.
type tensorInfo struct {
	name       string
	dtype      string // F32, F16 or BF16
	rows, cols int
	begin, end int64 // byte offsets of its data in the file
}

func dtypeSize(dtype string) int {
	switch dtype {
	case "F32":
		return 4
	case "F16", "BF16":
		return 2
	}
	return 0
}

// readSafetensors reads the header of a safetensors file of size bytes:
// an 8-byte little-endian header length n, n bytes of JSON, then the
// data, to which the tensors' data_offsets are relative. It picks the
// tensor named "embeddings", or the only tensor, checks that it is a 2-D
// float32, float16 or bfloat16 matrix lying inside the file, and returns
// it with offsets from the start of the file.
func readSafetensors(r io.ReaderAt, size int64) (tensorInfo, error) {
	var t tensorInfo
	var lenBuf [8]byte
	if size < 8 {
		return t, errors.New("too short for a safetensors file")
	}
	if _, err := r.ReadAt(lenBuf[:], 0); err != nil {
		return t, err
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxHeaderBytes || n > uint64(size-8) {
		return t, fmt.Errorf("header length %d does not fit the file (%d bytes) or exceeds %d", n, size, maxHeaderBytes)
	}
	header := make([]byte, n)
	if _, err := r.ReadAt(header, 8); err != nil {
		return t, err
	}
	t, err := parseSafetensorsHeader(header, size-8-int64(n))
	if err != nil {
		return t, err
	}
	return t.withBase(8 + int64(n)), nil
}

// parseSafetensorsHeader parses the JSON header; dataSize is the number of
// bytes after it.
func parseSafetensorsHeader(header []byte, dataSize int64) (tensorInfo, error) {
	var t tensorInfo
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(header, &entries); err != nil {
		return t, fmt.Errorf("header is not a JSON object: %s", oneLine(err.Error(), 200))
	}
	delete(entries, "__metadata__")
	var names []string
	for name := range entries {
		names = append(names, name)
	}
	slices.Sort(names)
	switch {
	case len(names) == 0:
		return t, errors.New("no tensor")
	case entries["embeddings"] != nil:
		t.name = "embeddings"
		if len(names) > 1 {
			others := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == "embeddings" })
			return t, fmt.Errorf("tensors %s besides embeddings are not supported (a vocabulary-quantized model2vec export?); export the model without them", quoteList(others))
		}
	case len(names) == 1:
		t.name = names[0]
	default:
		return t, fmt.Errorf("%d tensors (%s) and none named embeddings", len(names), quoteList(names))
	}
	var desc struct {
		Dtype       string  `json:"dtype"`
		Shape       []int64 `json:"shape"`
		DataOffsets []int64 `json:"data_offsets"`
	}
	if err := json.Unmarshal(entries[t.name], &desc); err != nil {
		return t, fmt.Errorf("tensor %q: %s", t.name, oneLine(err.Error(), 200))
	}
	t.dtype = desc.Dtype
	es := dtypeSize(desc.Dtype)
	if es == 0 {
		return t, fmt.Errorf("tensor %q has dtype %q; want F32, F16 or BF16", t.name, oneLine(desc.Dtype, 20))
	}
	if len(desc.Shape) != 2 {
		return t, fmt.Errorf("tensor %q has %d dimensions; want 2 (tokens × components)", t.name, len(desc.Shape))
	}
	rows, cols := desc.Shape[0], desc.Shape[1]
	if rows < 1 || cols < 1 || cols > maxDim || rows > maxElements/cols {
		return t, fmt.Errorf("tensor %q has shape [%d, %d]; want at least one row, 1 to %d columns and at most %d numbers", t.name, rows, cols, maxDim, maxElements)
	}
	if len(desc.DataOffsets) != 2 {
		return t, fmt.Errorf("tensor %q: data_offsets must be [begin, end]", t.name)
	}
	begin, end := desc.DataOffsets[0], desc.DataOffsets[1]
	if begin < 0 || end < begin || end > dataSize {
		return t, fmt.Errorf("tensor %q: data_offsets [%d, %d] are outside the %d bytes of data", t.name, begin, end, dataSize)
	}
	if want := rows * cols * int64(es); end-begin != want {
		return t, fmt.Errorf("tensor %q: data_offsets [%d, %d] hold %d bytes; shape [%d, %d] of %s needs %d", t.name, begin, end, end-begin, rows, cols, desc.Dtype, want)
	}
	t.rows, t.cols = int(rows), int(cols)
	t.begin, t.end = begin, end
	return t, nil
}

// withBase makes t's offsets absolute, given the start of the data.
func (t tensorInfo) withBase(base int64) tensorInfo {
	t.begin += base
	t.end += base
	return t
}

func quoteList(names []string) string {
	q := make([]string, 0, min(len(names), 6))
	for i, n := range names {
		if i == 5 {
			q = append(q, "…")
			break
		}
		q = append(q, fmt.Sprintf("%q", oneLine(n, 40)))
	}
	return strings.Join(q, ", ")
}

// readTensor reads t's data as float32, checking that every value is
// finite.
func readTensor(r io.ReaderAt, t tensorInfo) ([]float32, error) {
	es := dtypeSize(t.dtype)
	out := make([]float32, t.rows*t.cols)
	buf := make([]byte, 1<<20-(1<<20)%4)
	for i, off := 0, t.begin; off < t.end; {
		n := min(int64(len(buf)), t.end-off)
		b := buf[:n]
		if _, err := r.ReadAt(b, off); err != nil {
			return nil, err
		}
		for j := 0; j+es <= len(b); j += es {
			var x float32
			switch t.dtype {
			case "F32":
				x = math.Float32frombits(binary.LittleEndian.Uint32(b[j:]))
			case "F16":
				x = float16(binary.LittleEndian.Uint16(b[j:]))
			case "BF16":
				x = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[j:])) << 16)
			}
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("tensor %q: row %d holds %v", t.name, i/t.cols, x)
			}
			out[i] = x
			i++
		}
		off += n
	}
	return out, nil
}

// float16 converts an IEEE 754 half-precision number.
func float16(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0: // zero
		return math.Float32frombits(sign)
	}
	// Subnormal: frac × 2^-24.
	v := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}
