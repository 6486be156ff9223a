package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/google/go-cmp/cmp"
)

// The helper process: the test binary run again with these variables set
// updates the index and exits, so that other tests can kill it.
const (
	helperDir = "CTXPACK_INDEX_HELPER_DIR"
	helperDB  = "CTXPACK_INDEX_HELPER_DB"
)

func TestHelperUpdate(t *testing.T) {
	dir := os.Getenv(helperDir)
	if dir == "" {
		t.Skip("run as a helper process by TestCrash and TestConcurrentProcesses")
	}
	ix, _, err := Open(os.Getenv(helperDB), Options{Now: testNow})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	st, err := ix.Update(context.Background(), os.DirFS(dir), func(p Progress) {
		if p.Phase == "lock" {
			fmt.Fprintln(os.Stderr, "waiting for", p.Holder)
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	ix.Close()
	fmt.Println(st.StateRoot)
	os.Exit(0)
}

func helper(dir, db string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperUpdate$")
	cmd.Env = append(os.Environ(), helperDir+"="+dir, helperDB+"="+db)
	return cmd
}

// treeRoot is the state root of the files in dir, computed directly.
func treeRoot(t testing.TB, dir string) string {
	t.Helper()
	fsys := os.DirFS(dir)
	files, _, err := project.Walk(fsys, nil, project.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var in []project.Input
	for _, f := range files {
		text, _, err := project.ReadText(fsys, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, project.Input{Path: f.Path, CID: project.ContentID(text)})
	}
	return project.StateRoot(in)
}

// consistent checks an index's invariants from its rows alone: the stored
// state root is that of its files, every file's chunk count is its
// chunks', and every chunk has its terms. It returns the state root.
func consistent(t testing.TB, db string) (State, string) {
	t.Helper()
	ix, state, err := Open(db, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if state.Reason != Current {
		return state, ""
	}
	ctx := context.Background()
	st, err := ix.Status(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT path, cid FROM files WHERE skip = ''`)
	if err != nil {
		t.Fatal(err)
	}
	var in []project.Input
	for rows.Next() {
		var i project.Input
		if err := rows.Scan(&i.Path, &i.CID); err != nil {
			t.Fatal(err)
		}
		in = append(in, i)
	}
	rows.Close()
	if root := project.StateRoot(in); root != st.StateRoot {
		t.Errorf("stored state root %s, files say %s", st.StateRoot, root)
	}
	var chunks, sum, terms, orphans int
	q := func(sql string, v *int) {
		if err := ix.db.QueryRowContext(ctx, sql).Scan(v); err != nil {
			t.Fatal(sql, err)
		}
	}
	q(`SELECT count(*) FROM chunks`, &chunks)
	q(`SELECT coalesce(sum(chunks), 0) FROM files`, &sum)
	q(`SELECT count(*) FROM chunk_terms`, &terms)
	q(`SELECT count(*) FROM chunks WHERE path NOT IN (SELECT path FROM files WHERE skip = '')`, &orphans)
	if chunks != sum || chunks != terms || orphans != 0 {
		t.Errorf("chunks %d, files say %d, terms rows %d, orphan chunks %d", chunks, sum, terms, orphans)
	}
	return state, st.StateRoot
}

// TestCrash kills `index` (the helper process) with SIGKILL at random
// moments while it updates a generated project of a few thousand files,
// and checks that the index is each time at the old state or the new one,
// and that the next update gives what a clean build gives.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs SIGKILL")
	}
	kills := 20
	if s := os.Getenv("CTXPACK_CRASH_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CTXPACK_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (CTXPACK_CRASH_SEED to repeat)", seed)
	r := rand.New(rand.NewPCG(seed, 1))

	dir := t.TempDir()
	files := genProject(seed, 2500)
	writeTree(t, dir, files)
	db := filepath.Join(dir, ".ctxpack", "index.db")
	queries := []string{"invoice total", "ParseRequest", "merkle_root", "ledger balance report"}

	var lastDur time.Duration
	run := func() {
		t.Helper()
		start := time.Now()
		out, err := helper(dir, db).CombinedOutput()
		if err != nil {
			t.Fatalf("helper: %v\n%s", err, out)
		}
		lastDur = time.Since(start)
	}
	var oldStates, newStates int
	for i := range kills {
		prevState, prevRoot := consistent(t, db)
		if i > 0 {
			// Change about a fifth of the files, so the update has work.
			var touched []string
			files, touched = mutate(seed+uint64(i), files)
			syncTree(t, dir, files, touched, epoch.Add(time.Duration(i)*time.Minute))
		}
		want := treeRoot(t, dir)
		cmd := helper(dir, db)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		budget := lastDur
		if budget == 0 {
			budget = 2 * time.Second
		}
		delay := time.Duration(r.Int64N(int64(budget)))
		time.Sleep(delay)
		_ = cmd.Process.Kill() // SIGKILL
		err := cmd.Wait()
		var ee *exec.ExitError
		killed := errors.As(err, &ee) && !ee.Exited()
		if err != nil && !killed {
			t.Fatalf("kill %d: helper failed: %v\n%s", i, err, stderr.String())
		}

		state, root := consistent(t, db)
		switch {
		case state.Reason == Current && root == want:
			newStates++
		case state == prevState && root == prevRoot:
			oldStates++
		default:
			t.Fatalf("kill %d after %v: index at %v %s; want the old state (%v %s) or the new one (%s)", i, delay, state, root, prevState, prevRoot, want)
		}

		run() // the next update completes
		_, root = consistent(t, db)
		if root != want {
			t.Fatalf("kill %d: after the next update the state root is %s, want %s", i, root, want)
		}
		if i%5 == 4 || i == kills-1 {
			ix, _, err := Open(db, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			clean, _ := build(t, dir, filepath.Join(t.TempDir(), "clean.db"), Options{})
			if d := cmp.Diff(answers(t, clean, queries), answers(t, ix, queries)); d != "" {
				t.Fatalf("kill %d: answers differ from a clean build (-clean +recovered):\n%s", i, d)
			}
			if d := cmp.Diff(dump(t, clean, false), dump(t, ix, false)); d != "" {
				t.Fatalf("kill %d: rows differ from a clean build (-clean +recovered):\n%s", i, d)
			}
			ix.Close()
			clean.Close()
		}
	}
	t.Logf("%d kills: %d left the old state, %d the new one", kills, oldStates, newStates)
}

// TestConcurrentProcesses runs two updates of one index at once, in two
// processes: one waits for the other, and the index ends up as a clean
// build.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	writeTree(t, dir, genProject(4, 1500))
	db := filepath.Join(dir, ".ctxpack", "index.db")
	var wg sync.WaitGroup
	outs := make([][]byte, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { outs[i], errs[i] = helper(dir, db).CombinedOutput() })
	}
	wg.Wait()
	want := treeRoot(t, dir)
	waited := 0
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("update %d: %v\n%s", i, errs[i], outs[i])
		}
		if !strings.Contains(string(outs[i]), want) {
			t.Errorf("update %d: %s, want state root %s", i, outs[i], want)
		}
		if strings.Contains(string(outs[i]), "waiting for pid ") {
			waited++
		}
	}
	if waited == 0 {
		t.Log("the updates did not overlap")
	}
	if _, root := consistent(t, db); root != want {
		t.Errorf("state root %s, want %s", root, want)
	}
}

// TestLockTimeout checks that an update that cannot get the lock in time
// fails with a message naming the holder, and that one that waits long
// enough succeeds.
func TestLockTimeout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, genProject(5, 50))
	db := filepath.Join(t.TempDir(), "i.db")

	a, _, err := Open(db, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	inside, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	done := make(chan error)
	go func() {
		_, err := a.Update(ctx, os.DirFS(dir), func(p Progress) {
			if p.Phase == "index" {
				once.Do(func() { close(inside); <-release })
			}
		})
		done <- err
	}()
	<-inside

	b, _, err := Open(db, Options{Now: testNow, LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, err = b.Update(ctx, os.DirFS(dir), nil)
	var le *LockError
	if !errors.As(err, &le) || !strings.Contains(le.Holder, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("update while locked: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "index: another update holds ") {
		t.Errorf("message %q", err)
	}
	// Searching is not blocked by an update.
	if _, err := b.Search(ctx, "invoice", 1, SearchOptions{}); err != nil && !errors.As(err, new(*NotCurrentError)) {
		t.Errorf("search during an update: %v", err)
	}

	c, _, err := Open(db, Options{Now: testNow, LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waiting := make(chan string, 1)
	cdone := make(chan error)
	go func() {
		_, err := c.Update(ctx, os.DirFS(dir), func(p Progress) {
			if p.Phase == "lock" {
				waiting <- p.Holder
			}
		})
		cdone <- err
	}()
	if h := <-waiting; !strings.Contains(h, "pid ") {
		t.Errorf("holder %q", h)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-cdone; err != nil {
		t.Fatal(err)
	}
}
