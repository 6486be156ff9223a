package app

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/store"
)

// The environment variables that choose the store, over the
// configuration: a whole PostgreSQL URL (which may hold the password,
// since the environment is not committed), and the namespace.
const (
	EnvStore          = "CTXPACK_STORE"
	EnvStoreNamespace = "CTXPACK_STORE_NAMESPACE"
	// EnvStorePasswordFile names a file holding the PostgreSQL password
	// alone. It is read from the environment only, never from the
	// configuration: a repository's configuration names the server, and
	// must not also choose a local file whose content goes to it.
	EnvStorePasswordFile = "CTXPACK_STORE_PASSWORD_FILE"
)

// StoreSettings say where the project's store of memories, experiences,
// values and commits is (the store: setting, docs/team.md).
type StoreSettings struct {
	// Location is the OS path of the SQLite file (.ctxpack/sources.db, the
	// default), or a PostgreSQL URL.
	Location string
	// Name is the store for messages: ".ctxpack/sources.db", or the URL
	// without its password and the namespace ("postgres://ctxpack@db:5432/team, namespace billing").
	Name string
	// Namespace is the namespace read and written; Shared the others read.
	Namespace string
	Shared    []string
	// Password is read from the file CTXPACK_STORE_PASSWORD_FILE names;
	// "" when none is named.
	Password string
}

// storeConfig is the store: section in its mapping form; the scalar form
// is the URL alone.
type storeConfig struct {
	URL       string   `yaml:"url"`
	Namespace string   `yaml:"namespace"`
	Shared    []string `yaml:"shared"`
}

// StoreSettings reads the store: setting and the CTXPACK_STORE and
// CTXPACK_STORE_NAMESPACE variables. Without them the store is the SQLite
// file .ctxpack/sources.db, namespace "default". A PostgreSQL store needs
// a namespace (the same in every checkout of the project), and its
// password never comes from the configuration file, which is committed:
// a URL there that holds one is an error, naming the file and line.
func (p *Project) StoreSettings() (StoreSettings, error) {
	var c storeConfig
	var bad project.BadKey
	if n, ok := p.Config.Extra["store"]; ok && !project.IsNullYAML(&n) {
		if d := project.DerefYAML(&n); d.Kind == yaml.ScalarNode {
			c.URL = d.Value
			bad = func(_, must string) error { return fmt.Errorf("ctxpack: %sstore %s", p.Config.Where("store"), must) }
		} else {
			var err error
			if _, bad, err = p.configSection("store", &c, nil); err != nil {
				return StoreSettings{}, err
			}
		}
		if c.URL != "" {
			if err := checkURL(c.URL); err != nil {
				return StoreSettings{}, bad("url", err.Error())
			}
			if urlHasPassword(c.URL) {
				return StoreSettings{}, bad("url", "holds a password, and the configuration file is shared: take it out, and put it in PGPASSWORD, a ~/.pgpass line, or a file named by "+EnvStorePasswordFile)
			}
		}
		for _, ns := range append([]string{c.Namespace}, c.Shared...) {
			if ns != "" && !store.ValidNamespace(ns) {
				return StoreSettings{}, bad("namespace", notNamespace(ns))
			}
		}
	}
	if env := os.Getenv(EnvStore); env != "" {
		if err := checkURL(env); err != nil {
			return StoreSettings{}, fmt.Errorf("ctxpack: %s %s", EnvStore, err)
		}
		c.URL = env
	}
	if env := os.Getenv(EnvStoreNamespace); env != "" {
		if !store.ValidNamespace(env) {
			return StoreSettings{}, fmt.Errorf("ctxpack: %s: %s", EnvStoreNamespace, notNamespace(env))
		}
		c.Namespace = env
	}
	s := StoreSettings{Location: store.DefaultPath(p.Root), Name: StorePath(), Namespace: c.Namespace, Shared: c.Shared}
	if c.URL == "" {
		if s.Namespace == "" {
			s.Namespace = store.DefaultNamespace
		}
		return s, nil
	}
	if s.Namespace == "" {
		return StoreSettings{}, fmt.Errorf("ctxpack: a PostgreSQL store needs a namespace: set store.namespace in the configuration, or %s, to the project's name (billing, say), the same in every checkout", EnvStoreNamespace)
	}
	s.Location = c.URL
	s.Name = redactURL(c.URL) + ", namespace " + s.Namespace
	if f := os.Getenv(EnvStorePasswordFile); f != "" {
		pw, err := readPasswordFile(f)
		if err != nil {
			return StoreSettings{}, err
		}
		s.Password = pw
	}
	return s, nil
}

func notNamespace(ns string) string {
	return fmt.Sprintf("%q is not a namespace: a lower-case letter or digit, then up to 62 letters, digits, '.', '_' or '-'", ns)
}

// checkURL says what is wrong with a store URL: not PostgreSQL's, or not
// a URL at all.
func checkURL(raw string) error {
	if !store.IsURL(raw) {
		return fmt.Errorf("must be a PostgreSQL URL, postgres://user@host:port/database (got %q); leave store out for the SQLite store at .ctxpack/sources.db", raw)
	}
	if _, err := url.Parse(raw); err != nil {
		return errors.New("must be a PostgreSQL URL, postgres://user@host:port/database; it does not parse as a URL")
	}
	return nil
}

// urlHasPassword reports whether a PostgreSQL URL (checkURL) holds a
// password, in its user part or as a password parameter.
func urlHasPassword(raw string) bool {
	u, _ := url.Parse(raw)
	if _, ok := u.User.Password(); ok {
		return true
	}
	return u.Query().Has("password")
}

// redactURL is a PostgreSQL URL (checkURL) without its password and
// parameters.
func redactURL(raw string) string {
	u, _ := url.Parse(raw)
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	u.RawQuery = ""
	return u.String()
}

// readPasswordFile reads the password from path ("~/" is the home
// folder). The file holds the password alone; a final line break is not
// part of it.
func readPasswordFile(path string) (string, error) {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("ctxpack: "+EnvStorePasswordFile+" %s: %w", path, err)
		}
		path = filepath.Join(home, rest)
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("ctxpack: "+EnvStorePasswordFile+" %s does not exist; create it with the password alone (chmod 600)", path)
	case err != nil:
		return "", fmt.Errorf("ctxpack: "+EnvStorePasswordFile+": %w", err)
	case !fi.Mode().IsRegular() || fi.Size() > 4096:
		return "", fmt.Errorf("ctxpack: "+EnvStorePasswordFile+" %s must be a file of at most 4096 bytes holding the password alone", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("ctxpack: "+EnvStorePasswordFile+": %w", err)
	}
	pw := strings.TrimRight(string(b), "\r\n")
	if pw == "" || strings.ContainsAny(pw, "\r\n") {
		return "", fmt.Errorf("ctxpack: "+EnvStorePasswordFile+" %s must hold the password alone, on one line", path)
	}
	return pw, nil
}
