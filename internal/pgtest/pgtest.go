package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env names the environment variable that holds the superuser URL of
// the shared throwaway server DSN makes its databases on.
const Env = "CTXPACK_TEST_POSTGRES"

// hint says how to get a server for DSN.
const hint = "set " + Env + " to the superuser URL of a throwaway PostgreSQL server: .ci/run does it; " +
	"locally, run `scripts/pgcluster start /tmp/pg` at the repository root and export the URL it prints " +
	"(`export " + Env + "=$(scripts/pgcluster start /tmp/pg)`; `scripts/pgcluster stop /tmp/pg` stops it)"

// installHint says how to get PostgreSQL's server binaries.
const installHint = "install PostgreSQL's server: apt-get install postgresql (Debian puts its binaries in /usr/lib/postgresql/VERSION/bin)"

// timeout bounds every statement pgtest runs on a server.
const timeout = 30 * time.Second

// missing skips t with msg or, when CI is "true", fails it: CI must never
// skip a test that needs PostgreSQL.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI must run this test", msg)
	} else {
		t.Skip(msg)
	}
}

var serial atomic.Int64

// uniqueName returns prefix followed by the process id, a counter and a
// random suffix: unique across the tests of one binary and across test
// binaries running at once on one server or machine.
func uniqueName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return fmt.Sprintf("%s%d_%d_%s", prefix, os.Getpid(), serial.Add(1), hex.EncodeToString(b))
}

// DSN returns the postgres:// URL of a fresh, empty database made for
// this test on the server CTXPACK_TEST_POSTGRES names, and drops the
// database (closing its connections) when the test ends. The database is
// UTF8 with the C collation. Without CTXPACK_TEST_POSTGRES, the test is
// skipped, or fails when CI is "true".
func DSN(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(Env)
	if admin == "" {
		missing(t, "pgtest: "+Env+" is not set: "+hint)
	}
	u, err := url.Parse(admin)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
		t.Fatalf("pgtest: %s is not a postgres:// URL with a host (postgres://USER@HOST:PORT/postgres?sslmode=disable): %s", Env, redacted(admin))
	}
	name := uniqueName("ctxpack_test_")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("pgtest: connect to %s (%s): %v; %s", Env, u.Redacted(), err, hint)
	}
	defer conn.Close(context.Background())
	// template0 and explicit locales: the server's default locale does not
	// decide how text sorts.
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"); err != nil {
		t.Fatalf("pgtest: create database %s on %s: %v", name, u.Redacted(), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Errorf("pgtest: drop database %s: connect to %s: %v", name, u.Redacted(), err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s on %s: %v", name, u.Redacted(), err)
		}
	})
	v := *u
	v.Path = "/" + name
	v.RawPath = ""
	return v.String()
}

// redacted is s with the password of a URL hidden, or a placeholder when
// s does not parse as a URL (it might hold a password anywhere).
func redacted(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
