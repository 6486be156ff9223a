package app

import (
	"fmt"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/secrets"
)

// SecretsConfig is the secrets: section of the configuration
// (docs/security.md): redaction on by default, an allow-list, and the
// secret files to pack anyway.
//
//	secrets:
//	  redact: true              # false turns redaction off for the project
//	  allow:                    # path globs not scanned, and fingerprints kept
//	    - testdata/fixtures/**
//	    - fp:0123456789abcdef
//	  include:                  # files left out by their name, packed anyway
//	    - .env.ci
type SecretsConfig struct {
	Redact  *bool    `yaml:"redact"`
	Allow   []string `yaml:"allow"`
	Include []string `yaml:"include"`
}

// secretsState is the secrets: section, read once.
type secretsState struct {
	once    sync.Once
	scanner *secrets.Scanner // nil when redaction is off
	include []string
	err     error
}

// loadSecrets reads the secrets: section.
func (p *Project) loadSecrets() (*secrets.Scanner, []string, error) {
	s := &p.secrets
	s.once.Do(func() {
		var c SecretsConfig
		_, bad, err := p.configSection("secrets", &c, nil)
		if err != nil {
			s.err = err
			return
		}
		for i, g := range c.Include {
			if strings.TrimSpace(g) == "" {
				s.err = bad(fmt.Sprintf("include[%d]", i), "must be a path glob, not empty")
				return
			}
		}
		s.include = c.Include
		if c.Redact != nil && !*c.Redact {
			return
		}
		sc, globs, err := secrets.New(c.Allow)
		if err != nil {
			s.err = bad("allow", strings.TrimPrefix(err.Error(), "secrets: "))
			return
		}
		if len(globs) > 0 {
			sc.AllowPath = func(path string) bool { return matchAny(globs, path) }
		}
		s.scanner = sc
	})
	return s.scanner, s.include, s.err
}

func matchAny(globs []string, path string) bool {
	for _, g := range globs {
		if project.MatchGlob(g, path) {
			return true
		}
	}
	return false
}

// scanner is the redact stage's scanner for a request: the configured
// one, or none when the request turns redaction off.
func (p *Project) scanner(req Request) (*secrets.Scanner, error) {
	sc, _, err := p.loadSecrets()
	if err != nil || req.NoRedact {
		return nil, err
	}
	return sc, nil
}

// walkOptions are the file walk's settings: the walk: section's, with the
// secret files secrets.include names kept, and lock files and generated
// files skipped unless walk.include_generated (for packs, links mode's
// code, the index and check alike: such files are noise to a reader and
// to a ranking, docs/selection.md).
func (p *Project) walkOptions() (project.WalkOptions, error) {
	o := p.Config.Walk.Options()
	o.SkipGenerated = !p.Config.Walk.IncludeGenerated
	_, include, err := p.loadSecrets()
	if err != nil {
		return o, err
	}
	if len(include) > 0 {
		o.KeepSecretFiles = func(path string) bool { return matchAny(include, path) }
	}
	return o, nil
}

// redactText is the redact stage for a text shown outside an assembly
// (an artifact by show, a file by summarize): the configured scanner's
// findings in text, at path, replaced by their markers, with a warning
// that sums them up ("" when there are none).
func (p *Project) redactText(path, text string) (string, string, error) {
	sc, _, err := p.loadSecrets()
	if err != nil {
		return text, "", err
	}
	found := sc.Scan(path, text)
	if len(found) == 0 {
		return text, "", nil
	}
	return secrets.Redact(text, found), redactionWarning(path, found), nil
}

// redactSpan is redactText for the bytes [a, b) of text, some lines of
// the file at path: the whole file is scanned, so that a value the span
// cuts (a private key whose first line is above it) is found too, and
// each value's bytes in the span are replaced by its marker. The warning
// gives the lines of the file.
func (p *Project) redactSpan(path, text string, a, b int) (string, string, error) {
	sc, _, err := p.loadSecrets()
	if err != nil {
		return text[a:b], "", err
	}
	var in []secrets.Finding
	for _, f := range sc.Scan(path, text) {
		if f.End <= a || f.Start >= b {
			continue
		}
		f.Start, f.End = max(f.Start, a)-a, min(f.End, b)-a
		in = append(in, f)
	}
	if len(in) == 0 {
		return text[a:b], "", nil
	}
	return secrets.Redact(text[a:b], in), redactionWarning(path, in), nil
}

// redactionWarning sums up the secrets found at path.
func redactionWarning(path string, found []secrets.Finding) string {
	rules := make([]string, len(found))
	for i, f := range found {
		rules[i] = f.Rule
	}
	lines := make([]string, len(found))
	for i, f := range found {
		lines[i] = fmt.Sprintf("%d (%s)", f.Line, f.Fingerprint)
	}
	return fmt.Sprintf("redacted %d %s in %s (%s) at lines %s; secrets.allow in .ctxpack/config.yaml keeps a false positive",
		len(found), plural(len(found), "secret", "secrets"), path, secrets.Tally(rules), strings.Join(lines, ", "))
}
