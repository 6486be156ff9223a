package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReport(t *testing.T) {
	o := func(repo, lang string, rank int, in bool, edit float64) outcome {
		return outcome{id: repo, repo: repo, language: lang, rank: rank, inBudget: in, editShare: edit, tokens: 100, took: time.Second}
	}
	tests := []struct {
		name string
		outs []outcome
		want string
	}{
		{
			name: "without languages there is no language line",
			outs: []outcome{o("a/x", "", 1, true, 1), o("a/x", "", 4, true, 0.5), o("b/y", "", 0, false, 0)},
			want: `
  repository  n  recall@1  recall@3  recall@5  recall@10  file@9  edit@9  mean tokens  mean time
         a/x  2      0.50      0.50      1.00       1.00    1.00    0.75          100      1.00s
         b/y  1      0.00      0.00      0.00       0.00    0.00    0.00          100      1.00s
     overall  3      0.33      0.33      0.67       0.67    0.67    0.50          100      1.00s
`,
		},
		{
			name: "languages, largest group first",
			outs: []outcome{o("g/a", "go", 3, true, 0), o("p/b", "python", 1, true, 1), o("p/c", "python", 11, false, 0), o("p/c", "python", 10, true, 0)},
			want: `
       repository  n  recall@1  recall@3  recall@5  recall@10  file@9  edit@9  mean tokens  mean time
              p/c  2      0.00      0.00      0.00       0.50    0.50    0.00          100      1.00s
              g/a  1      0.00      1.00      1.00       1.00    1.00    0.00          100      1.00s
              p/b  1      1.00      1.00      1.00       1.00    1.00    1.00          100      1.00s
  language python  3      0.33      0.33      0.33       0.67    0.67    0.33          100      1.00s
      language go  1      0.00      1.00      1.00       1.00    1.00    0.00          100      1.00s
          overall  4      0.25      0.50      0.50       0.75    0.75    0.25          100      1.00s
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			report(&b, tt.outs, 9)
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), b.String()); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunAll(t *testing.T) {
	var insts []instance
	for i := range 9 {
		insts = append(insts, instance{ID: fmt.Sprintf("i%d", i), Repo: "r"})
	}
	// one finishes the later instances first and prints as it goes.
	one := func(in instance, w io.Writer) (outcome, error) {
		var i int
		fmt.Sscanf(in.ID, "i%d", &i)
		time.Sleep(time.Duration(9-i) * time.Millisecond)
		fmt.Fprintf(w, "%s start\n%s end\n", in.ID, in.ID)
		if in.ID == "i6" {
			return outcome{}, errors.New("boom")
		}
		return outcome{id: in.ID, rank: i}, nil
	}
	tests := []struct {
		parallel int
		insts    []instance
		wantLog  string
		wantIDs  []string
		wantErr  string
	}{
		{1, insts[:3], "i0 start\ni0 end\ni1 start\ni1 end\ni2 start\ni2 end\n", []string{"i0", "i1", "i2"}, ""},
		{4, insts[:6], "i0 start\ni0 end\ni1 start\ni1 end\ni2 start\ni2 end\ni3 start\ni3 end\ni4 start\ni4 end\ni5 start\ni5 end\n", []string{"i0", "i1", "i2", "i3", "i4", "i5"}, ""},
		{20, insts[:2], "i0 start\ni0 end\ni1 start\ni1 end\n", []string{"i0", "i1"}, ""},
		{3, insts[5:], "i5 start\ni5 end\ni6 start\ni6 end\n", nil, "i6: boom"},
		{2, nil, "", []string{}, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("parallel %d of %d", tt.parallel, len(tt.insts)), func(t *testing.T) {
			var log bytes.Buffer
			outs, err := runAll(tt.insts, tt.parallel, one, &log)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if log.String() != tt.wantLog {
				t.Errorf("log:\n%s\nwant:\n%s", log.String(), tt.wantLog)
			}
			if tt.wantErr != "" {
				return
			}
			ids := []string{}
			for _, o := range outs {
				ids = append(ids, o.id)
			}
			if diff := cmp.Diff(tt.wantIDs, ids); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
		})
	}
}
