package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on tokenizer.json.
const (
	maxTokenizerBytes = 256 << 20
	maxVocab          = 1 << 24
	maxNormalizers    = 8 // nesting of Sequence normalizers
)

// The vocabulary kinds of a tokenizer.json model.
const (
	wordPiece = iota
	unigram
)

// metaspace starts the pieces that begin a word in Unigram
// (SentencePiece) vocabularies.
const metaspace = "▁"

// hfTokenizer is the part of a Hugging Face tokenizer.json that static
// embedding needs: the vocabulary, and a simplified tokenization.
//
// Text is lower-cased (strings.ToLower) when the normalizer says so (a
// BertNormalizer with lowercase true, or Lowercase, alone or in a
// Sequence); other normalization (accent stripping, NFKC) is not done.
//
// WordPiece: text is cut into words at white space, control characters
// and each punctuation character and CJK ideograph (BERT's
// pre-tokenization). Each word is matched greedily, longest piece first:
// the first piece as is, the following ones with the continuation prefix
// ("##" unless continuing_subword_prefix says otherwise). A word longer
// than max_input_chars_per_word runes (default 100), or with a part no
// piece matches, is unknown as a whole, as in BERT.
//
// Unigram: text is cut into words at white space only; each word is
// matched greedily, longest piece first, its first piece with the "▁"
// word-start prefix when the vocabulary has one, the others without; a
// character no piece matches is unknown on its own, and so is a word
// longer than 100 runes. This approximates SentencePiece's most likely
// segmentation by the longest match.
//
// Unknown words and pieces are left out; ids of the unknown token
// (unk_token, unk_id) are never produced.
type hfTokenizer struct {
	kind   int
	lower  bool
	prefix string           // WordPiece: the continuation prefix
	vocab  map[string]int32 // whole-word or word-start pieces
	cont   map[string]int32 // continuation pieces, without their prefix
	maxLen int              // longest piece in bytes, prefix excluded
	maxIn  int              // WordPiece: longest word in runes
	maxID  int32
}

// parseTokenizerJSON reads a tokenizer.json.
func parseTokenizerJSON(data []byte) (*hfTokenizer, error) {
	var raw struct {
		Normalizer json.RawMessage `json:"normalizer"`
		Model      *struct {
			Type                    string          `json:"type"`
			Vocab                   json.RawMessage `json:"vocab"`
			UnkToken                *string         `json:"unk_token"`
			UnkID                   *int64          `json:"unk_id"`
			ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
			MaxInputCharsPerWord    int64           `json:"max_input_chars_per_word"`
		} `json:"model"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a tokenizer.json: %s", oneLine(err.Error(), 200))
	}
	m := raw.Model
	if m == nil || len(m.Vocab) == 0 {
		return nil, errors.New("no model.vocab")
	}
	typ := m.Type
	if typ == "" { // older files: infer from the vocabulary's shape
		typ = "WordPiece"
		if strings.HasPrefix(strings.TrimSpace(string(m.Vocab)), "[") {
			typ = "Unigram"
		}
	}
	t := &hfTokenizer{vocab: make(map[string]int32), maxID: -1}
	lower, err := normalizerLowercases(raw.Normalizer, 0)
	if err != nil {
		return nil, err
	}
	t.lower = lower
	unk := int64(-1)
	switch typ {
	case "WordPiece":
		t.kind = wordPiece
		var vocab map[string]int64
		if err := json.Unmarshal(m.Vocab, &vocab); err != nil {
			return nil, fmt.Errorf("model.vocab of a WordPiece model must map tokens to ids: %s", oneLine(err.Error(), 200))
		}
		if len(vocab) > maxVocab {
			return nil, fmt.Errorf("model.vocab has %d tokens, more than %d", len(vocab), maxVocab)
		}
		prefix := "##"
		if m.ContinuingSubwordPrefix != nil {
			prefix = *m.ContinuingSubwordPrefix
		}
		t.prefix = prefix
		t.maxIn = 100
		if m.MaxInputCharsPerWord > 0 {
			t.maxIn = int(min(m.MaxInputCharsPerWord, 1<<20))
		}
		if m.UnkToken != nil {
			if id, ok := vocab[*m.UnkToken]; ok {
				unk = id
			}
		}
		t.cont = make(map[string]int32)
		for tok, id := range vocab {
			if id < 0 || id >= maxVocab {
				return nil, fmt.Errorf("model.vocab: token %q has id %d, not in [0, %d)", oneLine(tok, 40), id, maxVocab)
			}
			if id == unk || tok == "" {
				continue
			}
			if prefix != "" && strings.HasPrefix(tok, prefix) && len(tok) > len(prefix) {
				t.add(t.cont, tok[len(prefix):], int32(id))
			} else {
				t.add(t.vocab, tok, int32(id))
			}
			t.maxID = max(t.maxID, int32(id))
		}
		if prefix == "" {
			t.cont = t.vocab
		}
	case "Unigram":
		t.kind = unigram
		t.maxIn = 100
		var vocab []json.RawMessage
		if err := json.Unmarshal(m.Vocab, &vocab); err != nil {
			return nil, fmt.Errorf("model.vocab of a Unigram model must be a list of [token, score]: %s", oneLine(err.Error(), 200))
		}
		if len(vocab) > maxVocab {
			return nil, fmt.Errorf("model.vocab has %d tokens, more than %d", len(vocab), maxVocab)
		}
		if m.UnkID != nil {
			unk = *m.UnkID
		}
		t.cont = make(map[string]int32)
		for i, e := range vocab {
			var pair []json.RawMessage
			var tok string
			var score float64
			if json.Unmarshal(e, &pair) != nil || len(pair) != 2 || json.Unmarshal(pair[0], &tok) != nil || json.Unmarshal(pair[1], &score) != nil {
				return nil, fmt.Errorf("model.vocab[%d] is not [token, score]", i)
			}
			if int64(i) == unk || tok == "" {
				continue
			}
			if rest, ok := strings.CutPrefix(tok, metaspace); ok && rest != "" {
				t.add(t.vocab, rest, int32(i))
			} else {
				t.add(t.cont, tok, int32(i))
			}
			t.maxID = int32(i)
		}
	default:
		return nil, fmt.Errorf("model.type %q is not supported; want WordPiece or Unigram", oneLine(typ, 40))
	}
	if t.maxID < 0 {
		return nil, errors.New("model.vocab has no usable token")
	}
	return t, nil
}

// add puts tok in m, lower-cased when the tokenizer lower-cases (a
// lower-cased text can only match lower-case pieces); the first id wins.
func (t *hfTokenizer) add(m map[string]int32, tok string, id int32) {
	if t.lower && tok != strings.ToLower(tok) {
		return
	}
	if old, ok := m[tok]; ok && old <= id {
		return
	}
	m[tok] = id
	t.maxLen = max(t.maxLen, len(tok))
}

// normalizerLowercases reports whether a tokenizer.json normalizer
// lower-cases text.
func normalizerLowercases(raw json.RawMessage, depth int) (bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return false, nil
	}
	if depth > maxNormalizers {
		return false, errors.New("normalizer: Sequence nested too deeply")
	}
	var n struct {
		Type        string            `json:"type"`
		Lowercase   *bool             `json:"lowercase"`
		Normalizers []json.RawMessage `json:"normalizers"`
	}
	if err := json.Unmarshal(raw, &n); err != nil {
		return false, fmt.Errorf("normalizer: %s", oneLine(err.Error(), 200))
	}
	switch n.Type {
	case "Lowercase":
		return true, nil
	case "BertNormalizer":
		return n.Lowercase == nil || *n.Lowercase, nil
	case "Sequence":
		for _, c := range n.Normalizers {
			if l, err := normalizerLowercases(c, depth+1); err != nil || l {
				return l, err
			}
		}
	}
	return false, nil
}

// tokenize calls f with the ids of text's tokens, in order.
func (t *hfTokenizer) tokenize(text string, f func(id int32)) {
	if t.lower {
		text = strings.ToLower(text)
	}
	if t.kind == unigram {
		for _, w := range strings.FieldsFunc(text, unicode.IsSpace) {
			t.unigramWord(w, f)
		}
		return
	}
	start := -1
	for i, r := range text {
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError:
			if start >= 0 {
				t.wordPieceWord(text[start:i], f)
				start = -1
			}
		case isBertPunct(r) || isCJK(r):
			if start >= 0 {
				t.wordPieceWord(text[start:i], f)
				start = -1
			}
			t.wordPieceWord(text[i:i+utf8.RuneLen(r)], f)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		t.wordPieceWord(text[start:], f)
	}
}

// longest returns the longest piece of m that starts w, and its id; n = 0
// when none does.
func (t *hfTokenizer) longest(m map[string]int32, w string) (n int, id int32) {
	end := min(len(w), t.maxLen)
	for end > 0 {
		for end > 0 && end < len(w) && !utf8.RuneStart(w[end]) {
			end--
		}
		if end == 0 {
			break
		}
		if id, ok := m[w[:end]]; ok {
			return end, id
		}
		end--
	}
	return 0, 0
}

func (t *hfTokenizer) wordPieceWord(w string, f func(int32)) {
	if utf8.RuneCountInString(w) > t.maxIn {
		return // unknown
	}
	var ids [32]int32
	out := ids[:0]
	m := t.vocab
	for rest := w; rest != ""; {
		n, id := t.longest(m, rest)
		if n == 0 {
			return // a part no piece matches: the word is unknown
		}
		out = append(out, id)
		rest = rest[n:]
		m = t.cont
	}
	for _, id := range out {
		f(id)
	}
}

func (t *hfTokenizer) unigramWord(w string, f func(int32)) {
	if utf8.RuneCountInString(w) > t.maxIn {
		return // unknown
	}
	rest := w
	if n, id := t.longest(t.vocab, rest); n > 0 {
		f(id)
		rest = rest[n:]
	} else if id, ok := t.cont[metaspace]; ok {
		f(id)
	}
	for rest != "" {
		n, id := t.longest(t.cont, rest)
		if n == 0 {
			_, size := utf8.DecodeRuneInString(rest)
			rest = rest[size:] // unknown character
			continue
		}
		f(id)
		rest = rest[n:]
	}
}

// isBertPunct reports whether BERT's pre-tokenizer makes r a word of its
// own: ASCII punctuation and symbols, and Unicode punctuation.
func isBertPunct(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126)
	}
	return unicode.IsPunct(r)
}

// isCJK reports whether r is a CJK ideograph, which BERT splits off.
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}
