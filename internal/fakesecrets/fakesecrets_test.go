package fakesecrets

import (
	"encoding/base64"
	"encoding/json"
	"hash/crc32"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// secretByName says whether a file is one a scanner may leave out for its
// name alone.
func secretByName(p string) bool {
	base := path.Base(p)
	return base == ".env" || base == "id_rsa" || strings.HasSuffix(base, ".pem")
}

// corpus is every text of p: files, memories, the commit message.
func corpus(p Project) map[string]string {
	docs := map[string]string{CommitPath: p.CommitMessage}
	for k, v := range p.Files {
		docs[k] = v
	}
	for _, m := range p.Memories {
		docs[MemoryPath] += m + "\n"
	}
	return docs
}

func TestDeterministic(t *testing.T) {
	a, b := Generate(1), Generate(1)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two projects of seed 1 differ")
	}
	if c := Generate(2); reflect.DeepEqual(a.Secrets, c.Secrets) {
		t.Fatal("seeds 1 and 2 give the same secrets")
	}
}

func TestEveryKind(t *testing.T) {
	p := Generate(1)
	secrets, looks := map[string]bool{}, map[string]bool{}
	normal := map[string]bool{} // kinds found in a file that is not secret by name
	for _, s := range p.Secrets {
		secrets[s.Kind] = true
		if _, ok := p.Files[s.Path]; ok && !secretByName(s.Path) {
			normal[s.Kind] = true
		}
	}
	for _, l := range p.LookAlikes {
		looks[l.Kind] = true
		if secretByName(l.Path) {
			t.Errorf("look-alike %s in %s, a file that is secret by its name", l.Kind, l.Path)
		}
	}
	for _, k := range SecretKinds() {
		if !secrets[k] {
			t.Errorf("secret kind %s is not in the project", k)
		}
	}
	for _, k := range LookAlikeKinds() {
		if !looks[k] {
			t.Errorf("look-alike kind %s is not in the project", k)
		}
	}
	if n := len(secrets); n < 30 {
		t.Errorf("%d kinds of secrets, want 30 or more", n)
	}
	if n := len(looks); n < 10 {
		t.Errorf("%d kinds of look-alikes, want 10 or more", n)
	}
	if n := len(normal); n < 30 {
		t.Errorf("%d kinds of secrets in files that are not secret by name, want 30 or more", n)
	}
	if !slices.Equal(p.Manifest().Kinds(), slices.Sorted(func(yield func(string) bool) {
		for k := range secrets {
			if !yield(k) {
				return
			}
		}
	})) {
		t.Error("Manifest.Kinds is not the kinds of the secrets")
	}
	t.Logf("%d secrets of %d kinds (%d in files not secret by name), %d look-alikes of %d kinds",
		len(p.Secrets), len(secrets), len(normal), len(p.LookAlikes), len(looks))
}

// TestValues: no value is empty, each is found once in the whole project
// (in the document its Path names), and none holds another.
func TestValues(t *testing.T) {
	p := Generate(1)
	docs := corpus(p)
	type val struct{ what, v, path string }
	var vals []val
	for _, s := range p.Secrets {
		if len(s.Values) == 0 {
			t.Errorf("secret %s in %s has no values", s.Kind, s.Path)
		}
		for _, v := range s.Values {
			vals = append(vals, val{"secret " + s.Kind, v, s.Path})
		}
	}
	for _, l := range p.LookAlikes {
		vals = append(vals, val{"look-alike " + l.Kind, l.Value, l.Path})
		if len(l.Context) == 0 {
			t.Errorf("look-alike %s in %s has no context lines", l.Kind, l.Path)
		}
	}
	for i, a := range vals {
		if strings.TrimSpace(a.v) == "" {
			t.Errorf("%s in %s: empty value", a.what, a.path)
			continue
		}
		n := 0
		for _, d := range docs {
			n += strings.Count(d, a.v)
		}
		if n != 1 || !strings.Contains(docs[a.path], a.v) {
			t.Errorf("%s %q: found %d times in the project, want once, in %s", a.what, a.v, n, a.path)
		}
		for j, b := range vals {
			if i != j && strings.Contains(b.v, a.v) {
				t.Errorf("%s %q is in %s %q", a.what, a.v, b.what, b.v)
			}
		}
	}
	for _, s := range p.Secrets {
		for _, c := range s.Context {
			for _, v := range vals {
				if strings.Contains(c, v.v) {
					t.Errorf("a context line of secret %s holds %s", s.Kind, v.what)
				}
			}
		}
	}
}

// TestFormats checks the formats that have structure: JWTs are base64url
// JSON, GitHub tokens carry their CRC-32, PEM bodies are base64.
func TestFormats(t *testing.T) {
	p := Generate(1)
	for _, s := range p.Secrets {
		switch {
		case s.Kind == "jwt":
			parts := strings.Split(strings.Split(s.Values[0], ".")[0], ".")
			for _, part := range parts {
				b, err := base64.RawURLEncoding.DecodeString(part)
				if err != nil || !json.Valid(b) {
					t.Errorf("jwt: claims %q are not base64url JSON (%v)", part, err)
				}
			}
		case strings.HasPrefix(s.Kind, "github-") && s.Kind != "github-fine-grained-pat" && s.Kind != "github-refresh-token":
			tok := s.Values[0]
			body, check := tok[4:34], tok[34:]
			sum := crc32.ChecksumIEEE([]byte(body))
			want := make([]byte, 6)
			for i := 5; i >= 0; i-- {
				want[i] = base62[sum%62]
				sum /= 62
			}
			if len(tok) != 40 || check != string(want) {
				t.Errorf("%s %q: checksum %q, want %q", s.Kind, tok, check, want)
			}
		case strings.HasSuffix(s.Kind, "-private-key") || s.Kind == "gcp-service-account":
			if len(s.Values) < 2 {
				t.Errorf("%s: %d body lines", s.Kind, len(s.Values))
			}
			for _, l := range s.Values {
				if strings.Trim(l, base64std+"=") != "" {
					t.Errorf("%s: body line %q is not base64", s.Kind, l)
				}
			}
		}
	}
}

func TestCheck(t *testing.T) {
	p := Generate(1)
	m := p.Manifest()
	var all strings.Builder
	for _, d := range corpus(p) {
		all.WriteString(d)
	}
	s := m.Check(all.String())
	if len(s.Leaked) != len(p.Secrets) || s.Kept != len(p.LookAlikes) || s.InScope != len(p.LookAlikes) || s.KeptShare() != 1 {
		t.Errorf("the whole project: %d of %d leaked, %d of %d kept, %d in scope", len(s.Leaked), len(p.Secrets), s.Kept, len(p.LookAlikes), s.InScope)
	}
	// The same, as a JSON string: escaped, the values are still found.
	j, _ := json.Marshal(map[string]string{"text": all.String()})
	if s := m.Check(string(j)); len(s.Leaked) != len(p.Secrets) || s.Kept != len(p.LookAlikes) {
		t.Errorf("the project in JSON: %d of %d leaked, %d of %d kept", len(s.Leaked), len(p.Secrets), s.Kept, len(p.LookAlikes))
	}
	s = m.Check("")
	if len(s.Leaked) != 0 || s.Kept != 0 || s.Reached != 0 {
		t.Errorf("an empty output: %d leaked, %d kept, %d reached", len(s.Leaked), s.Kept, s.Reached)
	}
}
