package tokenizer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// tokenizerJSON is the part of tokenizer.json that CompileHF reads.
type tokenizerJSON struct {
	AddedTokens []struct {
		ID         int    `json:"id"`
		Content    string `json:"content"`
		Special    bool   `json:"special"`
		SingleWord bool   `json:"single_word"`
		Lstrip     bool   `json:"lstrip"`
		Rstrip     bool   `json:"rstrip"`
	} `json:"added_tokens"`
	Model struct {
		Type   string            `json:"type"`
		Vocab  map[string]int    `json:"vocab"`
		Merges []json.RawMessage `json:"merges"`
	} `json:"model"`
}

// CompileHF compiles a Hugging Face tokenizer.json into the vocabulary
// file a family's encoder is built from (the format internal/genhf
// describes, uncompressed), and says what it holds. byteLevel says the
// vocabulary is in GPT-2's byte-level alphabet (every family but gemma3).
// Only the model's vocabulary and merges and the added tokens that are not
// special are kept, in an order that depends on the file's content alone,
// so two files that tokenize alike compile to the same bytes.
func CompileHF(data []byte, byteLevel bool) ([]byte, string, error) {
	var t tokenizerJSON
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, "", err
	}
	if t.Model.Type != "BPE" {
		return nil, "", fmt.Errorf("model type %q, want BPE", t.Model.Type)
	}
	n := len(t.Model.Vocab)
	tokens := make([]string, n)
	seen := make([]bool, n)
	for s, id := range t.Model.Vocab {
		if id < 0 || id >= n || seen[id] {
			return nil, "", fmt.Errorf("ids are not 0..%d: %d (%q)", n-1, id, s)
		}
		seen[id] = true
		tokens[id] = s
	}
	isAdded := make(map[int]bool)
	for _, a := range t.AddedTokens {
		isAdded[a.ID] = true
	}
	raw := make([]string, n)
	rawSeen := make(map[string]int, n)
	unreachable := 0
	for id, s := range tokens {
		b := s
		if byteLevel {
			var err error
			if b, err = fromByteLevel(s); err != nil {
				if !isAdded[id] {
					return nil, "", fmt.Errorf("token %d %q: %v", id, s, err)
				}
				// An added token outside the byte-level alphabet (DeepSeek-V3
				// keeps three in its vocabulary) is never the result of a
				// merge; it is written empty.
				unreachable++
				continue
			}
		}
		if prev, ok := rawSeen[b]; ok {
			return nil, "", fmt.Errorf("tokens %d and %d are both %q", prev, id, b)
		}
		rawSeen[b] = id
		raw[id] = b
	}
	var buf bytes.Buffer
	buf.WriteString(hfMagic)
	put := func(v int) { buf.Write(binary.AppendUvarint(nil, uint64(v))) }
	put(n)
	for _, b := range raw {
		put(len(b))
		buf.WriteString(b)
	}
	put(len(t.Model.Merges))
	prevID := 0
	pairs := make(map[[2]int]bool, len(t.Model.Merges))
	for rank, m := range t.Model.Merges {
		a, b, err := parseMerge(m)
		if err != nil {
			return nil, "", fmt.Errorf("merge %d: %v", rank, err)
		}
		l, lok := t.Model.Vocab[a]
		r, rok := t.Model.Vocab[b]
		_, mok := t.Model.Vocab[a+b]
		if !lok || !rok || !mok {
			return nil, "", fmt.Errorf("merge %d (%q, %q) names a token not in the vocabulary", rank, a, b)
		}
		if pairs[[2]int{l, r}] {
			return nil, "", fmt.Errorf("merge %d (%q, %q) repeats an earlier one", rank, a, b)
		}
		pairs[[2]int{l, r}] = true
		if raw[l] == "" || raw[r] == "" || raw[t.Model.Vocab[a+b]] == "" {
			return nil, "", fmt.Errorf("merge %d (%q, %q) names an empty token", rank, a, b)
		}
		// The merge is written as the token it makes, as a signed delta
		// from the previous merge's (merges come roughly in id order), and
		// the length of its left part.
		id := t.Model.Vocab[a+b]
		buf.Write(binary.AppendVarint(nil, int64(id-prevID)))
		put(len(raw[l]))
		prevID = id
	}
	var added []int
	for i, a := range t.AddedTokens {
		if a.Special {
			continue
		}
		if a.SingleWord || a.Lstrip || a.Rstrip || a.Content == "" {
			return nil, "", fmt.Errorf("added token %q: single_word, lstrip, rstrip and empty tokens are not supported", a.Content)
		}
		added = append(added, i)
	}
	put(len(added))
	for _, i := range added {
		a := t.AddedTokens[i]
		put(a.ID)
		put(len(a.Content))
		buf.WriteString(a.Content)
	}
	stats := fmt.Sprintf("%d tokens (%d empty), %d merges, %d added tokens that are not special, %d bytes", n, unreachable, len(t.Model.Merges), len(added), buf.Len())
	return buf.Bytes(), stats, nil
}

// parseMerge reads a merge written either as ["a", "b"] or as "a b".
func parseMerge(m json.RawMessage) (string, string, error) {
	var pair []string
	if err := json.Unmarshal(m, &pair); err == nil {
		if len(pair) != 2 {
			return "", "", fmt.Errorf("%s: not a pair", m)
		}
		return pair[0], pair[1], nil
	}
	var s string
	if err := json.Unmarshal(m, &s); err != nil {
		return "", "", err
	}
	a, b, ok := strings.Cut(s, " ")
	if !ok || strings.Contains(b, " ") {
		return "", "", fmt.Errorf("%q: not two tokens", s)
	}
	return a, b, nil
}

// byteOf maps GPT-2's byte-level alphabet back to bytes: the printable
// bytes stand for themselves, the others for U+0100 and up, in order.
var byteOf = func() map[rune]byte {
	m := make(map[rune]byte, 256)
	next := rune(256)
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			m[rune(b)] = byte(b)
		} else {
			m[next] = byte(b)
			next++
		}
	}
	return m
}()

// fromByteLevel decodes a byte-level token into its bytes.
func fromByteLevel(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		c, ok := byteOf[r]
		if !ok || r == utf8.RuneError {
			return "", fmt.Errorf("%q is not in the byte-level alphabet", r)
		}
		b.WriteByte(c)
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("empty token")
	}
	return b.String(), nil
}
