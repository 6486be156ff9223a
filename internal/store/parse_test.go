package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

const oneExperience = `domain: debugging
strategy: systematic-elimination
goal: find why the invoice total drifts
hypothesis: rounding happens per line
action: summed the unrounded lines
prediction: the drift disappears
outcome: {status: falsified, result: the drift stayed}
surprise: |
  the drift was in the tax
root_cause: "wrong-assumption: the drift came from currency conversion"
lesson: convert currencies after summing
confidence: silver
iterations: 2
`

func TestParseExperiences(t *testing.T) {
	want := Experience{
		Domain: "debugging", Strategy: "systematic-elimination", Goal: "find why the invoice total drifts",
		Hypothesis: "rounding happens per line", Action: "summed the unrounded lines", Prediction: "the drift disappears",
		Outcome: OutcomeFalsified, Result: "the drift stayed", Surprise: "the drift was in the tax",
		RootCause: "wrong-assumption: the drift came from currency conversion", Lesson: "convert currencies after summing",
		Confidence: TierSilver, Iterations: 2,
	}
	got, err := ParseExperiences("exp.yaml", []byte(oneExperience))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Experience{want}, got); d != "" {
		t.Errorf("one mapping (-want +got):\n%s", d)
	}
	// A list, with outcome as a status and result beside it, and nulls.
	list := `- domain: testing
  goal: g1
  hypothesis: h
  action: a
  prediction: p
  outcome: confirmed
  result: r
  lesson: ~
- &second
  domain: feature
  goal: g2
  hypothesis: h
  action: a
  prediction: p
  outcome:
    status: abandoned
    result: r2
`
	got, err = ParseExperiences("list.yaml", []byte(list))
	if err != nil {
		t.Fatal(err)
	}
	wantList := []Experience{
		{Domain: "testing", Goal: "g1", Hypothesis: "h", Action: "a", Prediction: "p", Outcome: OutcomeConfirmed, Result: "r"},
		{Domain: "feature", Goal: "g2", Hypothesis: "h", Action: "a", Prediction: "p", Outcome: OutcomeAbandoned, Result: "r2"},
	}
	if d := cmp.Diff(wantList, got); d != "" {
		t.Errorf("a list (-want +got):\n%s", d)
	}
}

func TestParseExperiencesErrors(t *testing.T) {
	valid := strings.Split(strings.TrimSpace(oneExperience), "\n")
	// with replaces the line that starts with key (or adds it).
	with := func(key, line string) string {
		var out []string
		done := false
		for _, l := range valid {
			if strings.HasPrefix(l, key+":") || strings.HasPrefix(l, "  ") && key == "surprise" {
				if !done && line != "" {
					out = append(out, line)
				}
				done = true
				continue
			}
			out = append(out, l)
		}
		if !done {
			out = append(out, line)
		}
		return strings.Join(out, "\n") + "\n"
	}
	for _, c := range []struct{ name, in, want string }{
		{"bad status", with("outcome", "outcome: {status: maybe, result: r}"), `store: exp.yaml:7: outcome.status must be confirmed, falsified or abandoned (got "maybe")`},
		{"bad status scalar", with("outcome", "outcome: maybe\nresult: r"), `store: exp.yaml:7: outcome.status must be confirmed, falsified or abandoned (got "maybe")`},
		{"misspelt key", with("hypothesis", "hypotesis: h"), "store: exp.yaml:4: hypotesis is not a key of an experience (did you mean hypothesis?)"},
		{"root-cause", with("root_cause", "root-cause: x"), "store: exp.yaml:10: root-cause is not a key of an experience (did you mean root_cause?)"},
		{"far key", with("lesson", "notes: x"), "store: exp.yaml:11: notes is not a key of an experience; the keys are domain,"},
		{"outcome key", with("outcome", "outcome: {status: confirmed, reslt: r}"), "store: exp.yaml:7: outcome.reslt is not a key of an outcome (did you mean result?)"},
		{"missing goal", with("goal", ""), "store: exp.yaml:1: goal is required"},
		{"missing outcome", with("outcome", ""), "store: exp.yaml:1: outcome.status is required"},
		{"missing result", with("outcome", "outcome: confirmed"), "store: exp.yaml:1: outcome.result is required"},
		{"result twice", with("outcome", "outcome: {status: confirmed, result: a}\nresult: b"), "store: exp.yaml:8: result is given twice"},
		{"key twice", with("domain", "domain: a\ndomain: b"), "store: exp.yaml:2: domain is given twice (first at line 1)"},
		{"bad domain", with("domain", "domain: Debugging"), `store: exp.yaml:1: domain must be a lower-case word`},
		{"list goal", with("goal", "goal: [a, b]"), "store: exp.yaml:3: goal must be text (got a list)"},
		{"iterations", with("iterations", "iterations: many"), `store: exp.yaml:13: iterations must be a whole number from 1 (got "many")`},
		{"negative iterations", with("iterations", "iterations: -1"), "store: exp.yaml:13: iterations must be a whole number from 1, or 0"},
		{"confidence", with("confidence", "confidence: high"), `store: exp.yaml:12: confidence must be gold, silver, bronze or abandoned (got "high")`},
		{"outcome list", with("outcome", "outcome: [a]"), "store: exp.yaml:7: outcome must be a status"},
		{"syntax", "domain: [a\n", "store: exp.yaml:"},
		{"a scalar", "just text\n", `store: exp.yaml:1: must be an experience (a mapping) or a list of them (got "just text")`},
		{"empty", "", "store: exp.yaml: holds no experience"},
		{"null", "~\n", "store: exp.yaml:1: holds no experience"},
		{"empty list", "[]\n", "store: exp.yaml:1: holds no experience: the list is empty"},
		{"list of scalars", "- a\n", `store: exp.yaml:1: an experience must be a mapping of domain, goal, hypothesis, … (got "a")`},
		{"two documents", oneExperience + "---\n" + oneExperience, "store: exp.yaml:14: a second YAML document"},
		{"too big", strings.Repeat("#", MaxParseBytes+1), "store: exp.yaml: is 1048577 bytes, more than the 1048576"},
		{"too many", strings.Repeat("- {}\n", MaxParseExperiences+1), "store: exp.yaml:1: holds 10001 experiences, more than the 10000"},
	} {
		_, err := ParseExperiences("exp.yaml", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant an error starting %q", c.name, err, c.want)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Name != "exp.yaml" {
			t.Errorf("%s: %T is not a *ParseError naming the file", c.name, err)
		}
	}
	// A fault of a field's value is also the *ValidationError behind it.
	_, err := ParseExperiences("exp.yaml", []byte(with("confidence", "confidence: high")))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "confidence" {
		t.Errorf("no *ValidationError behind %v", err)
	}
}

// experienceYAML is the YAML form ParseExperiences reads, for
// round trips.
type experienceYAML struct {
	Domain     string `yaml:"domain"`
	Strategy   string `yaml:"strategy,omitempty"`
	Goal       string `yaml:"goal"`
	Hypothesis string `yaml:"hypothesis"`
	Action     string `yaml:"action"`
	Prediction string `yaml:"prediction"`
	Outcome    struct {
		Status string `yaml:"status"`
		Result string `yaml:"result"`
	} `yaml:"outcome"`
	Surprise   string `yaml:"surprise,omitempty"`
	RootCause  string `yaml:"root_cause,omitempty"`
	Lesson     string `yaml:"lesson,omitempty"`
	Confidence string `yaml:"confidence,omitempty"`
	Iterations int    `yaml:"iterations,omitempty"`
}

func toYAML(es []Experience) ([]byte, error) {
	out := make([]experienceYAML, len(es))
	for i, e := range es {
		y := experienceYAML{Domain: e.Domain, Strategy: e.Strategy, Goal: e.Goal, Hypothesis: e.Hypothesis, Action: e.Action,
			Prediction: e.Prediction, Surprise: e.Surprise, RootCause: e.RootCause, Lesson: e.Lesson,
			Confidence: string(e.Confidence), Iterations: e.Iterations}
		y.Outcome.Status, y.Outcome.Result = string(e.Outcome), e.Result
		out[i] = y
	}
	return yaml.Marshal(out)
}

func FuzzParseExperiences(f *testing.F) {
	f.Add([]byte(oneExperience))
	f.Add([]byte("- {domain: a, goal: g, hypothesis: h, action: a, prediction: p, outcome: confirmed, result: r}\n"))
	f.Add([]byte("domain: x\noutcome: {status: falsified}\n"))
	f.Add([]byte("- &a {domain: a}\n- *a\n"))
	f.Add([]byte("goal: \"\\xff\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := ParseExperiences("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "store: f.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(es) == 0 {
			t.Fatal("no experiences and no error")
		}
		for _, e := range es {
			if err := e.Validate(); err != nil {
				t.Fatalf("accepted %+v, which Validate refuses: %v", e, err)
			}
		}
		// What was accepted reads back the same from its YAML form.
		y, err := toYAML(es)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseExperiences("f.yaml", y)
		if err != nil {
			t.Fatalf("the YAML form of accepted experiences is refused: %v\n%s", err, y)
		}
		if d := cmp.Diff(es, again); d != "" {
			t.Fatalf("round trip (-first +again):\n%s\n%s", d, y)
		}
	})
}
