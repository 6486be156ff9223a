package evidence

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
)

// searchFor is a search that gives the hits listed for each query.
func searchFor(hits map[string][]Hit) func(context.Context, string, int) ([]Hit, []string, error) {
	return func(_ context.Context, query string, k int) ([]Hit, []string, error) {
		if query == "fail" {
			return nil, nil, errors.New("index: broken")
		}
		h := hits[query]
		return h[:min(k, len(h))], []string{"searched"}, nil
	}
}

func focusEnv(t *testing.T) (Env, *workspace.Workspace) {
	t.Helper()
	e := testEnv(t, t.TempDir(), map[string]string{
		"src/invoice.go": numbered("invoice", 20),
		"src/deploy.go":  numbered("deploy", 20),
	})
	e.Search = searchFor(map[string][]Hit{
		"invoice total":        {{Path: "src/invoice.go", StartLine: 5, EndLine: 8, Relevance: 0.75}},
		"blue green":           {{Path: "src/deploy.go", StartLine: 1, EndLine: 20, Relevance: 0.5}},
		"invoice lines before": {{Path: "src/invoice.go", StartLine: 15, EndLine: 20, Relevance: 0.5}},
	})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "Fix the invoice.", Role: "user"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/invoice.go::1,10"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/deploy.go"})
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "Blue green switch notes.", Kind: "bluegreen"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/deploy.go::1,2", Link: true, Rank: 300})
	return e, ws
}

// TestFocus checks what focus keeps and turns off, that a focus that
// finds nothing relevant changes nothing, that a new focus weighs again
// what the previous one turned off, and that focus off restores it.
func TestFocus(t *testing.T) {
	e, ws := focusEnv(t)
	ctx := context.Background()
	rep, err := e.Focus(ctx, ws, "invoice total", 5)
	if err != nil {
		t.Fatal(err)
	}
	want := "000_request=active 100_invoice_go=active 110_deploy_go=skipped 120_bluegreen=skipped 300_deploy_go=linked"
	if got := states(t, ws); got != want {
		t.Fatalf("after focus: %s, want %s", got, want)
	}
	var whys []string
	for _, f := range rep.Files {
		whys = append(whys, f.ID+" "+f.State+" "+f.Why)
	}
	wantWhys := []string{
		"100_invoice_go active hit 1 of the query, src/invoice.go:5-8 (relevance 0.750), overlaps it",
		"110_deploy_go skipped none of the 1 hits of the query overlaps src/deploy.go",
		"120_bluegreen skipped holds 0 of the query's 2 terms, and has no project source to match hits against",
		"300_deploy_go linked none of the 1 hits of the query overlaps src/deploy.go::1,2; kept: links are always active",
	}
	if strings.Join(whys, "\n") != strings.Join(wantWhys, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(whys, "\n"), strings.Join(wantWhys, "\n"))
	}
	if rep.Query != "invoice total" || len(rep.Restored) != 0 || len(rep.Warnings) != 1 {
		t.Errorf("report %+v", rep)
	}

	if _, err := e.Focus(ctx, ws, "zzz nothing", 5); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("a focus with nothing relevant: %v", err)
	}
	if got := states(t, ws); got != want {
		t.Errorf("a failed focus changed the workspace: %s, want %s", got, want)
	}
	// The deploy files, off by the first focus, are candidates again; the
	// note holds the query's terms.
	rep, err = e.Focus(ctx, ws, "blue green", 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := states(t, ws); got != "000_request=active 100_invoice_go=skipped 110_deploy_go=active 120_bluegreen=active 300_deploy_go=linked" {
		t.Errorf("after the second focus: %s", got)
	}
	if len(rep.Restored) != 2 || len(rep.Files) != 4 || rep.Files[2].Why != "holds 2 of the query's 2 terms" {
		t.Errorf("report: %+v", rep)
	}

	on, warnings, err := FocusOff(ws)
	if err != nil || len(on) != 1 || len(warnings) != 0 {
		t.Fatalf("focus off: %v %v %v", on, warnings, err)
	}
	if rels, _ := ws.Focused(); len(rels) != 0 {
		t.Errorf("focus record after focus off: %v", rels)
	}
	if on, warnings, err := FocusOff(ws); on != nil || warnings != nil || err != nil {
		t.Errorf("a second focus off: %v %v %v", on, warnings, err)
	}
}

func TestFocusOffWarnsAboutMovedFiles(t *testing.T) {
	e, ws := focusEnv(t)
	if _, err := e.Focus(context.Background(), ws, "invoice total", 5); err != nil {
		t.Fatal(err)
	}
	// One of the files focus turned off is turned on by hand.
	if err := os.Rename(filepath.Join(ws.Dir, "evidence", "110_deploy_go.evidence.md.skip"), filepath.Join(ws.Dir, "evidence", "110_deploy_go.evidence.md")); err != nil {
		t.Fatal(err)
	}
	on, warnings, err := FocusOff(ws)
	if err != nil || len(on) != 1 || len(warnings) != 1 || !strings.Contains(warnings[0], "no longer there as a skipped file") {
		t.Errorf("focus off: %v %v %v", on, warnings, err)
	}
	if on, warnings, err := FocusOff(openWS(t, e, "nothing")); on != nil || warnings != nil || err != nil {
		t.Errorf("focus off in a workspace that does not exist: %v %v %v", on, warnings, err)
	}
}

func TestFocusRefuses(t *testing.T) {
	e, ws := focusEnv(t)
	ctx := context.Background()
	if _, err := e.Focus(ctx, ws, "  ", 5); err == nil {
		t.Error("an empty query: no error")
	}
	if _, err := e.Focus(ctx, ws, "fail", 0); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("a search that fails: %v", err)
	}
	before := states(t, ws)
	// A hit past the span does not reach it.
	if _, err := e.Focus(ctx, ws, "invoice lines before", 5); err == nil {
		t.Error("hits outside every span: no error")
	}
	if got := states(t, ws); got != before {
		t.Errorf("changed: %s", got)
	}
}
