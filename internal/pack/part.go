package pack

import (
	"fmt"
	"github.com/ctxpack/ctxpack/internal/secrets"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk/chunkid"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// Level is how much of a part is shown.
type Level int8

// The levels, lowest to highest (DESIGN §3). They start at 1 so that the
// zero Level means "not set".
const (
	Meta     Level = iota + 1 // metadata only (alias "stub")
	Summary                   // adds the first section or the doc comment and top-level symbols
	Detailed                  // adds headings with first paragraphs, or signatures and types
	Full                      // the whole text
	numLevels
)

var levelNames = [numLevels]string{"", "meta", "summary", "detailed", "full"}

func (l Level) String() string {
	if l < Meta || l >= numLevels {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel parses "meta" (or "stub"), "summary", "detailed" or "full".
func ParseLevel(s string) (Level, error) {
	for l := Meta; l <= Full; l++ {
		if s == levelNames[l] {
			return l, nil
		}
	}
	if s == "stub" {
		return Meta, nil
	}
	return 0, fmt.Errorf("pack: unknown level %q (valid: meta, summary, detailed, full)", s)
}

// Part is the unit that flows through the engine.
type Part struct {
	Key    string // stable and unique: "SPEC-BILLING-001", "src/a.go#3", "memory:42"
	Source string // "artifact", "code", "memory"…
	Type   string // "spec", "norm", "code"…: the section word of the text format
	Label  string // display name; Key when empty
	Path   string // slash path relative to the project root; "" if none
	Lines  [2]int // 1-based inclusive span; zero if none
	Doc    string // grouping document; Path when empty, else Key
	Seq    int    // reading order within the document
	Offset int    // byte offset within the document
	Lang   string // language, for markdown fences

	// Text holds the part at each level it can be shown at; at least one,
	// unless Loader gives its full text.
	Text map[Level]string
	// Loader, when set, loads the part's full text, which Text then does
	// not hold: a collector over a large tree gives its parts' texts this
	// way, so that neither it nor the engine holds every text at once.
	Loader *Loader `json:"-"`
	// More, when set, returns the part's intermediate levels, derived
	// from its fullest text (Text's highest level, or what Loader loads),
	// which it is given: texts that are costly to make (a code file's
	// extractive summary and detailed levels) and that most parts of a
	// large pack never rise to. The engine calls it only when it needs
	// them: when the degrade sequence reaches the part's upgrade steps (it
	// may call it a little ahead, for a few parts at a time, in
	// parallel); up front, in parallel, for the parts that will climb
	// when the whole sequence is built (at most Options.FullSequence
	// parts); or up front when Options.MaxLevel falls strictly between
	// the part's lowest and highest levels. It is called at most once per
	// assembly, possibly from another goroutine, and must be a pure
	// function of the part. Only levels strictly between the lowest and
	// highest that the part does not have, with non-empty text, are used;
	// anything else it returns is ignored.
	//
	// A lazy part's lowest rung is chosen from Text alone: an
	// intermediate level is shown only when it is longer than that rung
	// and shorter than every higher one. So a part whose More returns
	// levels longer than its lowest level in Text packs exactly as it
	// would with those levels in Text.
	More func(text string) map[Level]string `json:"-"`

	Score      float64
	Components map[string]float64 // the score's breakdown, reported as is
	Priority   int                // class compared before score: higher first
	Pinned     bool               // never dropped or lowered; fitted first
	Bucket     string             // budget bucket; "" is the policy's first
	Section    int                // render section when Options.Sectioned: lower first
	// Heading is the title of the section the part is shown under: in
	// markdown, a run of parts with one heading is headed "## Heading"
	// and each is shown bare (see render.Block.Section).
	Heading string
	Via     []string // the link chain that reached the part; for an artifact retrieval found, "matched: " and the query's terms it holds
	// Item, when set, is the part as an item of sources mode or
	// premortem: its one level's text is Item.Text(), and a cutting item
	// cap (Policy.Cut) cuts the item's body, keeping its heading and
	// metadata line, and ends it with the item's note.
	Item *render.Item `json:"-"`
	// Dedup tells the EditDistance deduplication what the part is beyond
	// its text.
	Dedup DedupKeys
	// Whole is how to get the part whole when it is shown at less (a
	// command, which the part's header names: render.Block.Rest): "" is
	// 'ctxpack summarize PATH:START-END --depth full' for a part with a
	// path and lines, which prints those lines, 'ctxpack summarize PATH
	// --depth full' for one with a path and no lines, and nothing for one
	// without a path. A part that is a whole file with its lines says so
	// with SummarizeCommand(Path, [2]int{}).
	Whole string
	// Window, when set, says the part's detailed level is a window of
	// it: these spans of the file's lines (1-based, inclusive) as they
	// are, the rest elided (retrieval's relevant lines of a large chunk).
	// The plan gives them as the part's "shown" lines at that level.
	Window [][2]int
	// SelfNoted says the part's lower levels say themselves that they are
	// less than the part and where the whole is (the evidence's "[ctxpack:
	// not shown for the budget; the evidence is PATH]"), or are the whole
	// (a list of globs), so its header does not.
	SelfNoted bool
	// CID is the content id of the part's fullest text ("sha256:" + hex),
	// when the collector has it already; the engine computes it otherwise.
	CID string
	// Changed is when the part last changed, in Unix seconds (from git
	// history, not file times); 0 if unknown. Used by Options.PreferRecent.
	Changed int64
}

// A Loader gives a part's full text when the engine needs it: to
// deduplicate, measure, derive More's levels from or render it. The engine
// keeps none of what it loads, so it may load a text several times, from
// several goroutines at once; every call must give the same text, Len
// bytes long. A load that fails fails the assembly with its error.
type Loader struct {
	Len  int // the text's length in bytes
	Load func() (string, error)
}

func (p *Part) doc() string {
	switch {
	case p.Doc != "":
		return p.Doc
	case p.Path != "":
		return p.Path
	}
	return p.Key
}

// Strategy orders parts for packing and rendering (CFS-021 §7–8).
type Strategy string

// The packing strategies.
const (
	Greedy      Strategy = "greedy"      // documents by best part, each document's parts in reading order
	Interleaved Strategy = "interleaved" // round-robin over documents
	ByScore     Strategy = "score"       // strictly by the total order
	// Relevance fits strictly by the total order, each part climbing to
	// its start level before the next is added, and renders the parts
	// shown grouped by document in reading order (docs/engine.md).
	Relevance Strategy = "relevance"
)

// Overflow says what happens to parts that do not fit (DESIGN §3).
type Overflow string

// The overflow strategies.
const (
	Degrade  Overflow = "degrade"  // lower the lowest-priority parts first, then drop them
	Drop     Overflow = "drop"     // keep the highest-priority parts whole
	Truncate Overflow = "truncate" // cut the first part that does not fit, with a marker
	Error    Overflow = "error"    // fail with a report of what did not fit
	Allow    Overflow = "allow"    // include everything, flag exceeded
)

// ParseStrategy parses a packing strategy name.
func ParseStrategy(s string) (Strategy, error) {
	switch Strategy(s) {
	case "":
		return Greedy, nil
	case Greedy, Interleaved, ByScore, Relevance:
		return Strategy(s), nil
	}
	return "", fmt.Errorf("pack: unknown packing strategy %q (valid: greedy, interleaved, score, relevance)", s)
}

// ParseOverflow parses an overflow strategy name.
func ParseOverflow(s string) (Overflow, error) {
	switch Overflow(s) {
	case "":
		return Degrade, nil
	case Degrade, Drop, Truncate, Error, Allow:
		return Overflow(s), nil
	}
	return "", fmt.Errorf("pack: unknown overflow strategy %q (valid: degrade, drop, truncate, error, allow)", s)
}

// Bucket is one share of the budget.
type Bucket struct {
	Name  string
	Share float64 // relative weight; shares need not sum to 1
}

// Policy divides the budget among buckets (tiers, sources). Buckets are
// filled side by side in proportion to their shares; a bucket that runs out
// of parts passes its share on to the next bucket that still has parts
// (wrapping to the first). The zero Policy is one bucket with no item cap.
type Policy struct {
	Buckets []Bucket
	// ItemCap, when above zero, is the largest fraction of its bucket's
	// share of the budget that one part may take; a level above the cap is
	// added only once the budget is large enough (or, with Cut, the part
	// is cut to the cap).
	ItemCap float64
	// WaterFill entitles each bucket, before fitting, to a part of the
	// budget by what its parts need (their demand: each part at its start
	// level): its share of the budget, and what buckets whose parts need
	// less than theirs leave, divided among the others by share, in
	// rounds, until every bucket left needs more than its part. A bucket
	// with no parts is entitled to nothing. The plan reports each bucket's
	// weight, entitlement, demand and item cap (render.Share). While
	// fitting, buckets are still filled side by side by their shares, and
	// one that runs out passes its share on.
	WaterFill bool
	// Cut makes the item cap cut parts rather than hold them back: before
	// fitting, a part whose text at its start level takes more than
	// ItemCap of its bucket's entitlement (with WaterFill; else its
	// share's part of the budget) is cut at a token boundary to the
	// largest text that fits the cap, ending with a note that says where
	// the whole is (an Item's note, else the truncate marker), and the
	// plan shows it truncated with the reason; a part whose cut cannot
	// hold even its heading and note is left out. A cap of 0 tokens cuts
	// nothing. Since the cap is a share of the budget, so is the cut: the
	// sequence of steps is the same for every budget only given the caps.
	Cut bool
}

// Options control an assembly. The zero value of every field but Tokenizer
// and Budget works.
type Options struct {
	Mode      string // "links", "retrieval", "pack"…: reported in the plan
	Target    string // what the context is for: reported in the plan
	Budget    int    // tokens the rendered content may use; must be positive unless Overflow is allow
	Tokenizer tokenizer.Tokenizer
	Format    render.Format
	Strategy  Strategy
	Overflow  Overflow
	// MaxLevel is the requested depth; parts start at the highest level
	// they have at or below it. The zero value (no level) means Full.
	MaxLevel Level
	// DedupStrategy is how parts that repeat others are found: Shingles
	// (the zero value) or EditDistance.
	DedupStrategy DedupStrategy
	// DedupThreshold is, with Shingles, the shingle resemblance (shared
	// shingles over the shingles of both parts) above which a
	// part duplicates an earlier one (0 means 0.8; values at or above 1
	// keep everything but exact copies), with EditDistance the similarity
	// at or above which it does (0 means 0.9); a negative value turns
	// deduplication off.
	DedupThreshold float64
	// ShowCopies shows a part that deduplication finds repeats a kept
	// part, when both have a path, as one line naming the kept part's
	// path ("[ctxpack: same as PATH]", or for a near copy how alike the
	// two are) instead of leaving it out unseen: the file is still
	// listed where it would be, at the cost of that line. The plan lists
	// it among the parts, at level meta, with the reason; a warning counts
	// the copies. Pack mode sets it.
	ShowCopies bool
	// MetaAsTree lists the parts that the degrade strategy shows at their
	// metadata level only, below the level they would have, in one
	// directory tree of their paths with their sizes in tokens
	// (render.Tree), shown before the other parts, instead of each as a
	// block of its own: one line per file rather than a heading and a
	// metadata line, folded by directory when there are many (the tree
	// takes at most 12 lines, or one per 80 tokens of the budget). The
	// tree is a part of the plan (TreeKey), counted like every other;
	// the fitting reserves its tokens and prices those metadata levels
	// at nothing, so the room they would have taken raises other parts.
	// Each part in the tree is listed among the dropped with a reason
	// starting "in the tree" (render.ReasonTree). A part of a span of
	// a file (its Key is not its Path) is listed with its lines. Parts
	// without a path, pinned parts, copies shown by ShowCopies and parts
	// whose requested depth is meta are shown as before. Pack and
	// retrieval modes set it.
	MetaAsTree bool
	// MaxChunksPerDoc limits the parts taken from one document; 0 is no limit.
	MaxChunksPerDoc int
	Policy          Policy
	// Sectioned renders parts by Part.Section first, then in packing order
	// (links mode: identity, norms, decisions, specs, task).
	Sectioned bool
	// StateRoot is the collector's Merkle root over its inputs, reported as is.
	StateRoot string
	// Metadata, when set, is shown as one line at the top of the content
	// (CFS-021's include_metadata) and counted like everything else.
	Metadata string
	// Header is written after the format's opening text, before the
	// first part ("# Context\n\n"); Footer, when set, gives what is
	// written after the last part from the parts shown, in render order
	// ("---\n*9 items from 3 sources*\n"). It must be a pure function of
	// them. Both are counted like everything else; neither is written when
	// no part is shown.
	Header string
	Footer func(shown []*Part) string `json:"-"`
	// PreferRecent adds a recency component to every part that has a
	// Changed time: 0.2 × 0.5^(days older than the newest part / 7), the aiwg
	// seed's recency weight and decay. Ages are relative to the newest
	// input, never to the clock.
	PreferRecent bool
	// Dropped are parts the collector left out before assembly, with their
	// reasons: reported first in the plan's dropped, in the order given.
	Dropped []render.Dropped
	// DroppedByStage lists the parts the engine leaves out stage by stage
	// (dedup, max_chunks_per_doc, item cap, then the budget), each stage's
	// in the order it went through the parts, instead of all in rank
	// order.
	DroppedByStage bool
	// Paths, Warnings and Skipped are the collector's, reported as is
	// (Paths sorted).
	Paths    []string
	Warnings []string
	Skipped  []render.Skip
	// Secrets, when set, is the redact stage's scanner: every text of
	// every part is scanned and each secret found replaced by a marker
	// naming its rule before anything is counted, and the plan lists the
	// findings in what is shown (render.Plan.Redactions). nil leaves
	// texts as they are.
	Secrets *secrets.Scanner `json:"-"`
	// Structure puts the directory structure of the parts' paths at the
	// top of the output (render.Structure: names, no sizes), as a part
	// keyed StructureKey that ranks above every other: fitted first, and
	// under a budget its levels fold directories (summary at most 12
	// lines, detailed 100, full every file, meta one line), each lowered
	// or dropped with its reason like any part's.
	Structure bool
	// Transform changes the full text of every part with a path before
	// anything is counted: comments and empty lines removed, line numbers
	// added (see Transform).
	Transform Transform
	// FullSequence bounds the work spent finding the budget at which each
	// left-out part would enter: the whole sequence is built when there are
	// at most this many parts (0 means 5,000); beyond that it stops once the
	// budget is passed and those parts report no need_budget.
	FullSequence int

	// chunker is the name the plan gives the chunker, which its digest
	// covers; "" (always, outside this package's tests) is this build's,
	// chunkid.Name().
	chunker string
}

func (o *Options) normalize() error {
	if o.Tokenizer == nil {
		return fmt.Errorf("pack: no tokenizer")
	}
	var err error
	if o.Strategy, err = ParseStrategy(string(o.Strategy)); err != nil {
		return err
	}
	if o.Overflow, err = ParseOverflow(string(o.Overflow)); err != nil {
		return err
	}
	if o.Format, err = render.ParseFormat(string(o.Format)); err != nil {
		return err
	}
	if o.Budget <= 0 && o.Overflow != Allow {
		return fmt.Errorf("pack: budget must be a positive number of tokens (got %d)", o.Budget)
	}
	if o.MaxLevel == 0 {
		o.MaxLevel = Full
	}
	if o.MaxLevel < Meta || o.MaxLevel > Full {
		return fmt.Errorf("pack: invalid level %d", o.MaxLevel)
	}
	if o.DedupStrategy, err = ParseDedupStrategy(string(o.DedupStrategy)); err != nil {
		return err
	}
	if o.DedupThreshold == 0 {
		o.DedupThreshold = o.DedupStrategy.defaultThreshold()
	}
	if o.FullSequence == 0 {
		o.FullSequence = 5000
	}
	if o.chunker == "" {
		o.chunker = chunkid.Name()
	}
	if len(o.Policy.Buckets) == 0 {
		o.Policy.Buckets = []Bucket{{Name: "", Share: 1}}
	}
	seen := map[string]bool{}
	for _, b := range o.Policy.Buckets {
		if b.Share < 0 {
			return fmt.Errorf("pack: bucket %q has a negative share", b.Name)
		}
		if seen[b.Name] {
			return fmt.Errorf("pack: bucket %q listed twice", b.Name)
		}
		seen[b.Name] = true
	}
	if o.Policy.ItemCap < 0 || o.Policy.ItemCap > 1 {
		return fmt.Errorf("pack: item cap must be between 0 and 1 (got %g)", o.Policy.ItemCap)
	}
	return nil
}

func validateParts(parts []Part) error {
	keys := make(map[string]bool, len(parts))
	for i := range parts {
		p := &parts[i]
		if p.Key == "" {
			return fmt.Errorf("pack: part %d has no key", i)
		}
		if keys[p.Key] {
			return fmt.Errorf("pack: duplicate part key %q", p.Key)
		}
		keys[p.Key] = true
		if len(p.Text) == 0 && p.Loader == nil {
			return fmt.Errorf("pack: part %q has no text at any level", p.Key)
		}
		if p.Loader != nil {
			if p.Loader.Load == nil {
				return fmt.Errorf("pack: part %q has a Loader without Load", p.Key)
			}
			if _, ok := p.Text[Full]; ok {
				return fmt.Errorf("pack: part %q has both a full text and a Loader", p.Key)
			}
		}
		for l := range p.Text {
			if l < Meta || l > Full {
				return fmt.Errorf("pack: part %q has text at invalid level %d", p.Key, l)
			}
		}
		if strings.ContainsRune(p.Key, '\n') {
			return fmt.Errorf("pack: part key %q contains a newline", p.Key)
		}
	}
	return nil
}
