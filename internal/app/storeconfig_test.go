package app

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreSettings checks where the store: setting and the environment
// put the store, and the errors they give, naming the file and line.
func TestStoreSettings(t *testing.T) {
	// The password is made here, from a fixed seed: no literal in the
	// source looks like one.
	pw := fmt.Sprintf("%016x", rand.New(rand.NewPCG(19, 19)).Uint64())
	pwFile := filepath.Join(t.TempDir(), "pgpass")
	if err := os.WriteFile(pwFile, []byte(pw+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	twoLines := filepath.Join(t.TempDir(), "two")
	if err := os.WriteFile(twoLines, []byte("a\nb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, config string
		env          map[string]string
		want         StoreSettings // Location "" means the SQLite default
		err          string
	}{
		{name: "default", want: StoreSettings{Name: ".ctxpack/sources.db", Namespace: "default"}},
		{name: "sqlite namespaces", config: "store:\n  namespace: billing\n  shared: [team, ops]\n",
			want: StoreSettings{Name: ".ctxpack/sources.db", Namespace: "billing", Shared: []string{"team", "ops"}}},
		{name: "url", config: "store:\n  url: postgres://ctxpack@db:5432/team\n  namespace: billing\n",
			want: StoreSettings{Location: "postgres://ctxpack@db:5432/team", Name: "postgres://ctxpack@db:5432/team, namespace billing", Namespace: "billing"}},
		{name: "scalar url and namespace from the environment", config: "store: postgres://ctxpack@db/team?sslmode=require\n",
			env:  map[string]string{EnvStoreNamespace: "search"},
			want: StoreSettings{Location: "postgres://ctxpack@db/team?sslmode=require", Name: "postgres://ctxpack@db/team, namespace search", Namespace: "search"}},
		{name: "environment url", env: map[string]string{EnvStore: "postgres://u:pw@h/d", EnvStoreNamespace: "x"},
			want: StoreSettings{Location: "postgres://u:pw@h/d", Name: "postgres://u@h/d, namespace x", Namespace: "x"}},
		{name: "password file", config: "store:\n  url: postgres://ctxpack@db/team\n  namespace: b\n", env: map[string]string{EnvStorePasswordFile: pwFile},
			want: StoreSettings{Location: "postgres://ctxpack@db/team", Name: "postgres://ctxpack@db/team, namespace b", Namespace: "b", Password: pw}},
		{name: "no namespace", config: "store: postgres://ctxpack@db/team\n", err: "a PostgreSQL store needs a namespace"},
		{name: "password in the url", config: "# team store\nstore:\n  url: postgres://ctxpack:pw@db/team\n  namespace: b\n", err: ".ctxpack/config.yaml:3: store.url holds a password"},
		{name: "password parameter", config: "store: postgres://ctxpack@db/team?password=pw\n", err: ".ctxpack/config.yaml:1: store holds a password"},
		{name: "a path", config: "store: team.db\n", err: ".ctxpack/config.yaml:1: store must be a PostgreSQL URL"},
		{name: "bad namespace", config: "store:\n  namespace: Billing\n", err: `store.namespace "Billing" is not a namespace`},
		{name: "bad shared", config: "store:\n  shared: [ok, 'no way']\n", err: `"no way" is not a namespace`},
		{name: "unknown key", config: "store:\n  password_file: x\n", err: "store.password_file is not a store setting"},
		{name: "url that does not parse", config: "store: 'postgres://db:port/x'\n", err: ".ctxpack/config.yaml:1: store must be a PostgreSQL URL, postgres://user@host:port/database; it does not parse"},
		{name: "bad namespace from the environment", config: "store:\n  namespace: billing\n", env: map[string]string{EnvStoreNamespace: "Bad One"}, err: `CTXPACK_STORE_NAMESPACE: "Bad One" is not a namespace`},
		{name: "environment not a url", env: map[string]string{EnvStore: "team.db"}, err: "CTXPACK_STORE must be a PostgreSQL URL"},
		{name: "missing password file", config: "store: postgres://u@h/d\n", env: map[string]string{EnvStoreNamespace: "x", EnvStorePasswordFile: filepath.Join(t.TempDir(), "none")}, err: "does not exist"},
		{name: "password file of two lines", config: "store: postgres://u@h/d\n", env: map[string]string{EnvStoreNamespace: "x", EnvStorePasswordFile: twoLines}, err: "must hold the password alone, on one line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{EnvStore, EnvStoreNamespace, EnvStorePasswordFile} {
				t.Setenv(k, c.env[k])
			}
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, ".ctxpack"), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.config != "" {
				if err := os.WriteFile(filepath.Join(dir, ".ctxpack", "config.yaml"), []byte(c.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, err := Open(dir, "")
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.StoreSettings()
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one holding %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.want.Location == "" {
				c.want.Location = filepath.Join(p.Root, ".ctxpack", "sources.db")
			}
			if got.Location != c.want.Location || got.Name != c.want.Name || got.Namespace != c.want.Namespace ||
				strings.Join(got.Shared, ",") != strings.Join(c.want.Shared, ",") || got.Password != c.want.Password {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}
