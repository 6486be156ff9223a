package tokenizer

import (
	"sync"
	"unicode/utf8"
)

// bpe is a byte-pair encoding: a splitter that cuts text into pieces, and a
// vocabulary whose ranks say which adjacent parts of a piece merge first.
type bpe struct {
	name  string
	vocab *vocab
	split splitter
}

var (
	o200kOnce, cl100kOnce sync.Once
	o200kBPE, cl100kBPE   *bpe
	o200kErr, cl100kErr   error
)

// o200k returns the o200k_base encoding, loading it on first use.
func o200k() (*bpe, error) {
	o200kOnce.Do(func() { o200kBPE, o200kErr = newBPE("o200k_base", o200kFile, true) })
	return o200kBPE, o200kErr
}

// cl100k returns the cl100k_base encoding, loading it on first use.
func cl100k() (*bpe, error) {
	cl100kOnce.Do(func() { cl100kBPE, cl100kErr = newBPE("cl100k_base", cl100kFile, false) })
	return cl100kBPE, cl100kErr
}

// newBPE builds an encoding from its vocabulary file; o200k selects
// o200k_base's pre-tokenizer, otherwise cl100k_base's.
func newBPE(name, file string, o200k bool) (*bpe, error) {
	v, err := parseVocab(name, file)
	if err != nil {
		return nil, err
	}
	return &bpe{name: name, vocab: v, split: splitter{bmp: loadClasses(), o200k: o200k}}, nil
}

// Name returns the encoding's name.
func (e *bpe) Name() string { return e.name }

// Count returns the number of tokens in the repaired text.
func (e *bpe) Count(text string) int {
	text = ToValidUTF8(text)
	var m merger
	n := 0
	for i := 0; i < len(text); {
		j := e.split.next(text, i)
		if j-i == 1 || e.vocab.rankIn(text, i, j) != noRank {
			n++
		} else {
			n += m.count(e.vocab, text, i, j)
		}
		i = j
	}
	return n
}

// Truncate returns the longest prefix of the repaired text that ends where
// one of the text's first max tokens ends, at a UTF-8 character boundary,
// and whose own count is at most max. A prefix can encode differently from
// the text it was cut from (the pieces at its end can split differently), so
// each candidate, longest first, is counted again. The result grows with max.
func (e *bpe) Truncate(text string, max int) string {
	text = ToValidUTF8(text)
	if max <= 0 {
		return ""
	}
	// Collect the ends of the first max tokens that fall on a character
	// boundary; stop at the first token past max.
	var m merger
	var ends []int
	n := 0
	for i := 0; i < len(text); {
		j := e.split.next(text, i)
		if j-i == 1 || e.vocab.rankIn(text, i, j) != noRank {
			if n++; n > max {
				break
			}
			ends = append(ends, j)
		} else {
			for _, b := range m.merge(e.vocab, text, i, j)[1:] {
				if n++; n > max {
					break
				}
				if end := i + int(b); end == len(text) || utf8.RuneStart(text[end]) {
					ends = append(ends, end)
				}
			}
		}
		if n > max {
			break
		}
		i = j
	}
	if n <= max {
		return text
	}
	for k := len(ends) - 1; k >= 0; k-- {
		if prefix := text[:ends[k]]; e.Count(prefix) <= max {
			return prefix
		}
	}
	return ""
}

// encode returns the token ids of the repaired text.
func (e *bpe) encode(text string) []int {
	text = ToValidUTF8(text)
	var m merger
	var ids []int
	for i := 0; i < len(text); {
		j := e.split.next(text, i)
		piece := text[i:j]
		if r := e.vocab.rank(piece); r != noRank {
			ids = append(ids, int(r))
		} else {
			b := m.merge(e.vocab, text, i, j)
			for k := 1; k < len(b); k++ {
				ids = append(ids, int(e.vocab.rank(piece[b[k-1]:b[k]])))
			}
		}
		i = j
	}
	return ids
}
