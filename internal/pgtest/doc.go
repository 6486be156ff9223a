// Package pgtest gives tests a PostgreSQL server: a fresh, empty database
// on the shared throwaway server that CTXPACK_TEST_POSTGRES names (DSN),
// or a private cluster of their own that they can stop, kill and restart
// (StartCluster), for fault tests.
//
// Only tests import it; nothing in it reaches ctxpack's output. Database
// and folder names carry the process id, a counter and a random suffix,
// so parallel test binaries on one server never meet.
//
// Every database it makes is UTF8 with the C collation (byte order), so
// ORDER BY on text sorts as SQLite's BINARY collation does, whatever the
// server's own locale.
//
// A test that needs PostgreSQL and finds none (CTXPACK_TEST_POSTGRES
// unset, or no server binaries for StartCluster) is skipped with a hint
// saying how to get one, except when CI is "true": then it fails, so CI
// never skips these tests silently.
//
// PostgreSQL refuses to run as root. When the test runs as root, as CI
// does, StartCluster runs initdb and postgres as the postgres system user
// (made by Debian's postgresql package), in a folder that user owns.
package pgtest
