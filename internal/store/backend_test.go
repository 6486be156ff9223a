package store

import "testing"

// TestNumberParams checks that ? parameters become $1, $2… and that a ?
// inside a quoted string or identifier is left alone.
func TestNumberParams(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT a FROM t WHERE b = ? AND c IN (?, ?)`, `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)`},
		{`SELECT '?', "a?b", ? FROM t`, `SELECT '?', "a?b", $1 FROM t`},
		{`SELECT 'it''s ?', ?`, `SELECT 'it''s ?', $1`},
	} {
		if got := numberParams(c.in); got != c.want {
			t.Errorf("numberParams(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
