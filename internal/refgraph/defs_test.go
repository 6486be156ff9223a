package refgraph

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/chunk"
)

func TestDefinitions(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []string
	}{{
		name: "go declarations",
		path: "a.go",
		src: `// Package a does "func NotThis()".
package a

import (
	"fmt"
	str "strings"
)

func Plain(x int) int { return x }
func (s *Server) ServeHTTP(w W, r *R) {
	func inner() {} // not top level
	var local = 1
}
func (l List[T]) Len() int { return 0 }
func Generic[T any](x T) T { return x }

type Server struct{ field int }
type (
	Alias = Server
	Pair[K comparable, V any] struct {
		key K
	}
)

var one, two = 1, 2
var (
	three    int
	four, five = 4,
		5
	six = func() int {
		seven := 7
		return seven
	}()
)

const (
	Red Color = iota
	Green
	Blue // a comment
)
const raw = ` + "`func Nope() {}`" + `
var r = '{'
`,
		want: []string{"Alias", "Blue", "Generic", "Green", "Len", "Pair", "Plain", "Red", "ServeHTTP", "Server", "five", "four", "one", "raw", "six", "three", "two"},
	}, {
		name: "go predeclared names are not definitions",
		path: "builtin.go",
		src:  "package builtin\n\ntype error interface{ Error() string }\nfunc append(s []T, x ...T) []T\nfunc len(v T) int\nconst true = 0 == 0\n",
		want: nil,
	}, {
		name: "python",
		path: "a.py",
		src: `"""Module docstring: def not_this(): pass"""
RATE = 2
rate == 3
class Invoice(Base):
    """class NotThis"""
    def total(self):
        local = 1
        return local  # def nope
async def fetch():
    pass
`,
		want: []string{"Invoice", "RATE", "fetch", "total"},
	}, {
		name: "typescript",
		path: "a.ts",
		src: `export const MAX_ITEMS = 10;
export function emptyCart(): Cart { const inner = 1; return {type: "x"}; }
export class Cart<T> {
  total(): number {
    if (this.x) { return 1; }
    return format(this.lines);
  }
}
export interface CartLine { sku: string }
export type Status = "open" | "closed";
enum Currency { EUR }
function* generate() {}
// function notThis() {}
const s = "class NotThis {}";
`,
		want: []string{"Cart", "CartLine", "Currency", "MAX_ITEMS", "Status", "emptyCart", "generate", "total"},
	}, {
		name: "c",
		path: "buf.c",
		src: `#include <stdio.h>
#define BUF_MIN 16
typedef struct buf buf_t;
struct buf { char *data; int len; };
int buf_count;
static const char *names[] = {"a"};
typedef struct { int x; } point_t;
int buf_append(buf_t *b, const char *s);
static int grow(buf_t *b, int n) {
	if (n > b->len) { return helper(n); }
	while (n) { n--; }
	return 0;
}
`,
		want: []string{"BUF_MIN", "buf", "buf_append", "buf_count", "buf_t", "grow", "names", "point_t"},
	}, {
		name: "java",
		path: "Ledger.java",
		src: `public class Ledger {
    private final List<Entry> entries = new ArrayList<>();
    public Ledger(String name) { this.name = name; }
    public long balance() throws IOException {
        for (Entry e : entries) { total(e); }
        return 0;
    }
    interface Listener { void changed(); }
    enum Kind { DEBIT, CREDIT }
}
`,
		want: []string{"Kind", "Ledger", "Listener", "balance"},
	}, {
		name: "rust",
		path: "lib.rs",
		src: `pub struct Money { cents: i64 }
pub enum Currency { Eur }
pub trait Convert { fn convert(&self) -> Money; }
impl Money {
    pub fn new(cents: i64) -> Self { let local = 1; Money { cents } }
}
pub const MAX: i64 = 100;
macro_rules! money { () => {} }
mod tests {}
`,
		want: []string{"Convert", "Currency", "MAX", "Money", "convert", "money", "tests"}, // "new" is reserved
	}, {
		name: "kotlin and swift",
		path: "a.kt",
		src:  "fun <T> List<T>.second(): T = this[1]\nobject Registry\nval TOP = 1\nfun outer() { val inner = 2 }\n",
		want: []string{"Registry", "TOP", "outer", "second"},
	}, {
		name: "documentation defines nothing",
		path: "README.md",
		src:  "# Title\n\nfunc Looks() like code.\n",
		want: nil,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := definitions(family(tc.path), tc.src)
			if diff := gocmp.Diff(tc.want, got); diff != "" {
				t.Errorf("definitions (-want +got):\n%s", diff)
			}
		})
	}
}

// chunkNames is what chunk.Split names in a file: the definitions the
// lexical scans stand in for.
func chunkNames(path string, src []byte) []string {
	var names []string
	for _, c := range chunk.Split(path, src) {
		for _, n := range chunk.SymbolNames(c.Symbol) {
			if isIdent(n) && len(n) >= MinIdentLen && !(family(path) == "go" && goPredeclared[n]) {
				names = append(names, n)
			}
		}
	}
	return sortedSet(names)
}

// TestDefinitionsCoverChunkSymbols checks the lexical scans against
// chunk.Split, whose unit names they stand in for: every name Split gives
// a Go file of net/http, and at least nine in ten of those it gives the
// C, C++, JavaScript and Python files of Go's tree and chunk's own test
// sources (the rest are mostly C globals declared inside braces and
// JavaScript destructuring).
func TestDefinitionsCoverChunkSymbols(t *testing.T) {
	src := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	for _, dir := range []string{"net/http", "runtime/cgo", "regexp/testdata", "cmd/vendor/github.com/google/pprof/internal/driver/html", "runtime"} {
		ms, _ := filepath.Glob(filepath.Join(src, dir, "*"))
		paths = append(paths, ms...)
	}
	ms, _ := filepath.Glob("../chunk/testdata/src/*")
	paths = append(paths, ms...)
	want, found := map[string]int{}, map[string]int{}
	for _, p := range paths {
		fam := family(p)
		if fam == "" || fam == "go" && !strings.Contains(p, "net/http") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		got := map[string]bool{}
		for _, n := range definitions(fam, string(b)) {
			got[n] = true
		}
		var missing []string
		for _, n := range chunkNames(p, b) {
			want[fam]++
			if got[n] {
				found[fam]++
			} else {
				missing = append(missing, n)
			}
		}
		if fam == "go" && len(missing) > 0 {
			t.Errorf("%s: chunk.Split names %v, goDefs does not", p, missing)
		}
		if len(missing) > 0 {
			t.Logf("%s: missing %v", p, missing)
		}
	}
	for _, fam := range []string{"go", "c", "js", "python"} {
		if want[fam] == 0 {
			t.Errorf("no %s names to compare", fam)
			continue
		}
		recall := float64(found[fam]) / float64(want[fam])
		t.Logf("%s: %d of %d names (%.2f)", fam, found[fam], want[fam], recall)
		if recall < 0.9 {
			t.Errorf("%s: the scan finds %d of the %d names chunk.Split gives", fam, found[fam], want[fam])
		}
	}
}
