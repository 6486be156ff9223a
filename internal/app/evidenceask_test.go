package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// askFiles is the project evidence ask is tested on: error handling in
// core, authentication in auth, and a flow that is about neither.
var askFiles = map[string]string{
	"src/core/errors.go": `package core

import "fmt"

// ErrNotFound is returned when a record is missing.
var ErrNotFound = fmt.Errorf("not found")

// WrapError adds the operation's name to an error, for error handling up the stack.
func WrapError(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}

// HandleError logs an error and decides whether to retry.
func HandleError(err error) bool {
	if err == ErrNotFound {
		return false
	}
	return true
}
`,
	"src/auth/login.go": `package auth

import "errors"

// Authenticate checks a user's password against the stored hash.
func Authenticate(user, password string) error {
	if user == "" {
		return errors.New("authentication: empty user")
	}
	if !checkHash(user, password) {
		return errors.New("authentication failed")
	}
	return nil
}

func checkHash(user, password string) bool {
	return len(password) > 8
}
`,
	"src/auth/token.go": `package auth

// IssueToken issues a session token after authentication succeeds.
func IssueToken(user string) string {
	return "tok-" + user
}
`,
	"src/core/flow.go": `package core

// RunFlow runs the steps in order.
func RunFlow(steps []string) int {
	n := 0
	for _, s := range steps {
		if s != "" {
			n++
		}
	}
	return n
}
`,
	"docs/errors.md": "# Errors\n\nError handling: wrap every error with WrapError and handle it once.\n",
}

// askWorkspace is the project with a workspace: the request; errors.go
// whole and a span of it; the flow twice (the same text); two spans of
// login.go that share lines; a note written by hand; token.go, skipped.
func askWorkspace(t *testing.T) (*Project, *Workspace) {
	t.Helper()
	files := map[string]string{}
	for k, v := range askFiles {
		files[k] = v
	}
	p := evidenceProject(t, t.TempDir(), files)
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "-", Text: "Fix the error handling of login.", Role: "user"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/core/errors.go"})                                                // 100
	mustAdd(t, p, ws, AddRequest{Selector: "src/core/errors.go::8,14"})                                          // 110
	mustAdd(t, p, ws, AddRequest{Selector: "src/core/flow.go"})                                                  // 120
	mustAdd(t, p, ws, AddRequest{Selector: "src/auth/login.go::5,9"})                                            // 130
	mustAdd(t, p, ws, AddRequest{Selector: "src/auth/login.go::7,12", Kind: "login_tail"})                       // 140
	mustAdd(t, p, ws, AddRequest{Selector: "-", Text: "Error handling happens once, at the top.", Kind: "note"}) // 150
	mustAdd(t, p, ws, AddRequest{Selector: "src/core/flow.go", Rank: 300, Kind: "flow_copy"})                    // 300
	mustAdd(t, p, ws, AddRequest{Selector: "src/auth/token.go", Rank: 310})                                      // 310
	if _, _, err := p.ToggleEvidence(ws, "310", "off"); err != nil {
		t.Fatal(err)
	}
	return p, ws
}

// askSummary is an answer in short: each section's answers by id or
// selector, with what the test checks of them.
func askSummary(r *AskReport) map[string][]string {
	out := map[string][]string{"sections": r.Sections, "coverage": {}, "gaps": {}, "redundant": {}, "overlaps": {}}
	for _, c := range r.Coverage {
		out["coverage"] = append(out["coverage"], c.ID+" "+c.Status)
	}
	for _, g := range r.Gaps {
		var missing []string
		for _, m := range g.Missing {
			missing = append(missing, fmt.Sprintf("%d-%d", m[0], m[1]))
		}
		out["gaps"] = append(out["gaps"], g.Selector+" missing "+strings.Join(missing, ",")+" partly "+strings.Join(g.Partly, ","))
	}
	for _, d := range r.Redundant {
		out["redundant"] = append(out["redundant"], d.ID+" by "+d.By+" "+d.How)
	}
	for _, o := range r.Overlaps {
		out["overlaps"] = append(out["overlaps"], fmt.Sprintf("%s %s %s:%d-%d", o.Entry, o.Other, o.Path, o.Lines[0], o.Lines[1]))
	}
	return out
}

// TestAskEvidence asks the seed's questions and others of one workspace:
// which sections each answers, and what is in each.
func TestAskEvidence(t *testing.T) {
	p, ws := askWorkspace(t)
	ctx := context.Background()
	tests := []struct {
		name     string
		question string
		sections []string
		budget   int
		want     map[string][]string // keys checked: those given
		wantErr  string
	}{
		{
			name: "coverage", question: "What evidence covers error handling?",
			want: map[string][]string{
				"sections": {"coverage"},
				// errors.go's hit first (both spans), then login.go's
				// spans by the second hit, then the note by its terms.
				"coverage": {"100_errors_go active", "110_errors_go active", "130_login_go active", "140_login_tail active", "150_note active"},
				"gaps":     {},
			},
		},
		{
			name: "gaps", question: "What's missing for authentication?",
			want: map[string][]string{
				"sections": {"gaps"},
				// Authenticate's chunk (5-15) runs past both spans
				// (5-9, 7-12): line 13 holds a term; 14 ("}") and 15
				// (blank) hold none. token.go is held by the skipped
				// file, so no gap.
				"gaps":     {"src/auth/login.go::13,13 missing 13-13 partly 130_login_go,140_login_tail"},
				"coverage": {},
			},
		},
		{
			name: "redundancy", question: "What evidence is redundant?",
			want: map[string][]string{
				"sections":  {"redundancy"},
				"redundant": {"110_errors_go by 100_errors_go within-span", "300_flow_copy by 120_flow_go same-text"},
				"overlaps":  {"140_login_tail 130_login_go src/auth/login.go:7-9"},
			},
		},
		{
			name: "bare subject", question: "authentication",
			want: map[string][]string{"sections": {"coverage", "gaps"}, "coverage": {"130_login_go active", "140_login_tail active", "310_token_go skipped"}},
		},
		{
			name: "sections named", question: "error handling", sections: []string{"redundancy", "coverage"},
			want: map[string][]string{"sections": {"coverage", "redundancy"}},
		},
		{
			// The statuses are the plan's (checked below for every case).
			name: "under a small budget", question: "what covers error handling", budget: 700,
			want: map[string][]string{"coverage": {"100_errors_go degraded", "110_errors_go degraded", "130_login_go degraded", "140_login_tail degraded", "150_note active"}},
		},
		{name: "empty", question: "  ", wantErr: "the question is empty"},
		{name: "no subject", question: "what is missing?", wantErr: "names no subject to find gaps for"},
		{name: "bad section", question: "x", sections: []string{"all"}, wantErr: `section "all" is not one of coverage, gaps, redundancy`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ar := AskRequest{Question: tt.question, Sections: tt.sections}
			rep, err := p.AskEvidence(ctx, ws, ar, Request{Budget: tt.budget})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := askSummary(rep)
			for k, want := range tt.want {
				if !slices.Equal(got[k], want) {
					t.Errorf("%s: %q, want %q", k, got[k], want)
				}
			}
			plan, err := p.AssembleEvidence(ctx, ws, Request{Budget: tt.budget}, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range rep.Coverage {
				if c.Why == "" || (len(c.Hits) == 0 && len(c.Terms) == 0) {
					t.Errorf("coverage %s has no reason: %+v", c.ID, c)
				}
				i := slices.IndexFunc(plan.Plan.Parts, func(pt EvidencePart) bool { return pt.URI == "file://"+c.Path })
				if i < 0 || plan.Plan.Parts[i].Status != c.Status || plan.Plan.Parts[i].Tokens != c.Tokens {
					t.Errorf("coverage %s: %s, %d tokens; not the plan's", c.ID, c.Status, c.Tokens)
				}
			}
			if rep.Budget != plan.Plan.Budget {
				t.Errorf("budget %d, the plan's %d", rep.Budget, plan.Plan.Budget)
			}
			for _, d := range rep.Redundant {
				if d.Why == "" || d.Saves <= 0 {
					t.Errorf("redundant %s: %+v", d.ID, d)
				}
			}
			// The same question, asked again, gives the same bytes.
			again, err := p.AskEvidence(ctx, ws, ar, Request{Budget: tt.budget})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(rep)
			b, _ := json.Marshal(again)
			if string(a) != string(b) {
				t.Errorf("asked twice, answered differently:\n%s\n%s", a, b)
			}
		})
	}
}

// TestAskEvidenceMeasures: what ask says a gap would cost is what adding
// it costs, and what it says turning redundant evidence off saves is what
// that saves, each counted on prompt.mdctx.
func TestAskEvidenceMeasures(t *testing.T) {
	p, ws := askWorkspace(t)
	ctx := context.Background()
	for _, tok := range []string{"o200k_base", "cl100k_base"} {
		req := Request{Tokenizer: tok}
		rep, err := p.AskEvidence(ctx, ws, AskRequest{Question: "what is missing for error handling and authentication?"}, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Gaps) == 0 || rep.Tokenizer != tok {
			t.Fatalf("%s: no gaps, or tokenizer %s: %+v", tok, rep.Tokenizer, rep)
		}
		for _, g := range rep.Gaps {
			a, err := p.AddEvidence(ctx, ws, AddRequest{Selector: g.Selector, Rank: -1}, req)
			if err != nil {
				t.Fatal(err)
			}
			if a.Tokens != g.Tokens || a.Total.Plan.TotalTokens != g.TotalTokens || g.Fits != (g.TotalTokens <= rep.Budget) {
				t.Errorf("%s: gap %s: ask says %d tokens, %d in all (fits %v); adding it takes %d, %d in all",
					tok, g.Selector, g.Tokens, g.TotalTokens, g.Fits, a.Tokens, a.Total.Plan.TotalTokens)
			}
			if _, _, err := p.RemoveEvidence(ws, []string{a.Entry.ID()}); err != nil {
				t.Fatal(err)
			}
		}
		rep, err = p.AskEvidence(ctx, ws, AskRequest{Question: "what is redundant?"}, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rep.Redundant {
			if _, _, err := p.ToggleEvidence(ws, d.ID, "off"); err != nil {
				t.Fatal(err)
			}
			res, err := p.AssembleEvidence(ctx, ws, Request{Tokenizer: tok, Overflow: "allow", Budget: rep.Budget}, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.TotalTokens - res.Plan.TotalTokens; got != d.Saves {
				t.Errorf("%s: turning %s off saves %d tokens; ask said %d", tok, d.ID, got, d.Saves)
			}
			if _, _, err := p.ToggleEvidence(ws, d.ID, "on"); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestAskEvidenceBadInput: no workspace, and no index with the index not
// to be updated, are errors that say what to do; neither writes anything.
func TestAskEvidenceBadInput(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{"src/a.go": "package a\n\n// Retry retries.\nfunc Retry() {}\n"})
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := p.AskEvidence(ctx, ws, AskRequest{Question: "what covers retry?"}, Request{}); err == nil || !strings.Contains(err.Error(), "ctx: no such workspace") || !strings.Contains(err.Error(), "evidence add") {
		t.Errorf("no workspace: %v", err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "src/a.go"})
	if err := os.RemoveAll(filepath.Join(dir, ".ctxpack", "index.db")); err != nil {
		t.Fatal(err)
	}
	_, err = p.AskEvidence(ctx, ws, AskRequest{Question: "what covers retry?"}, Request{Index: IndexOptions{NoUpdate: true}})
	if err == nil || !strings.Contains(err.Error(), "run 'ctxpack index'") {
		t.Errorf("no index: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".ctxpack", "index.db")); err == nil {
		t.Error("ask without updating the index made one")
	}
	// Redundancy needs no index.
	if _, err := p.AskEvidence(ctx, ws, AskRequest{Question: "what is redundant?"}, Request{Index: IndexOptions{NoUpdate: true}}); err != nil {
		t.Errorf("redundancy without an index: %v", err)
	}
	if _, err := p.AskEvidence(ctx, ws, AskRequest{Question: "x", Top: -1}, Request{}); err == nil {
		t.Error("a negative top: no error")
	}
}
