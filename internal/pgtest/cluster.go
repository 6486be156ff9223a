package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// startTimeout bounds how long the server may take to accept
// connections, crash recovery included, on a loaded machine.
const startTimeout = 2 * time.Minute

// Cluster is a private throwaway PostgreSQL cluster: its own data folder,
// a free TCP port on 127.0.0.1, its socket folder inside its own folder,
// trust authentication, fsync off. A test stops, kills and restarts it to
// see what its code does when the server goes away. Call its methods from
// the test's goroutine: they fail the test on an error.
type Cluster struct {
	t      testing.TB
	bindir string
	dir    string // data/, sock/ and postgres.log
	port   int
	cred   *syscall.Credential // the postgres user's, when the test runs as root

	mu     sync.Mutex
	cmd    *exec.Cmd     // the postmaster, nil when stopped
	exited chan struct{} // closed when cmd has exited
}

// StartCluster initializes and starts a private cluster, stopped and
// removed when the test ends. Without PostgreSQL's server binaries (found
// through pg_config --bindir, or the highest version in
// /usr/lib/postgresql/*/bin), the test is skipped, or fails when CI is
// "true".
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	bindir, err := binDir()
	if err != nil {
		missing(t, "pgtest: "+err.Error()+"; "+installHint)
	}
	c := &Cluster{t: t, bindir: bindir}
	uid, gid := -1, -1
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			missing(t, "pgtest: running as root, and PostgreSQL refuses to run as root, but there is no postgres user to run it as: "+err.Error()+"; "+installHint)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
	}
	c.dir, err = clusterDir(uid, gid)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(c.dir) })
	sock := filepath.Join(c.dir, "sock")
	if err := os.Mkdir(sock, 0o700); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if uid >= 0 {
		if err := os.Chown(sock, uid, gid); err != nil {
			t.Fatalf("pgtest: %v", err)
		}
	}
	initdb := exec.Command(filepath.Join(bindir, "initdb"), "-D", c.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir = c.dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("pgtest: initdb: %v\n%s", err, tail(string(out), 20))
	}
	t.Cleanup(c.Stop)
	// The port was free when chosen, but another process may take it
	// before postgres binds it: choose again then.
	for attempt := 1; ; attempt++ {
		if c.port, err = freePort(); err != nil {
			t.Fatalf("pgtest: %v", err)
		}
		err = c.start()
		if err == nil {
			return c
		}
		if attempt == 3 || !strings.Contains(err.Error(), "Address already in use") {
			t.Fatalf("pgtest: %v", err)
		}
	}
}

// URL returns the superuser URL of database dbname on the cluster.
func (c *Cluster) URL(dbname string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, dbname)
}

// Start starts the cluster again, on its port and data folder, and
// returns once it accepts connections (after crash recovery, if Kill
// stopped it). It does nothing when the cluster is running.
func (c *Cluster) Start() {
	c.t.Helper()
	if err := c.start(); err != nil {
		c.t.Fatalf("pgtest: %v", err)
	}
}

// Stop shuts the cluster down fast (the server rolls back open
// transactions and closes connections) and waits for it to exit. It does
// nothing when the cluster is stopped.
func (c *Cluster) Stop() {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return
	}
	pid := c.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil && !errors.Is(err, syscall.ESRCH) {
		c.t.Errorf("pgtest: stop postgres: %v", err)
	}
	select {
	case <-c.exited:
	case <-time.After(startTimeout):
		c.t.Errorf("pgtest: postgres did not stop within %v: killing it\n%s", startTimeout, c.log())
		kill(pid)
		<-c.exited
	}
	c.cmd = nil
}

// Kill sends SIGKILL to the postmaster and to every server process, as a
// crash of the machine would end them, and waits until they are gone: no
// backend answers on a connection opened before. Start recovers.
func (c *Cluster) Kill() {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return
	}
	kill(c.cmd.Process.Pid)
	<-c.exited
	c.cmd = nil
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// log returns the end of the server's log.
func (c *Cluster) log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "postgres.log"))
	return tail(string(b), 30)
}

// start starts the postmaster and waits until it accepts connections.
func (c *Cluster) start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil {
		return nil
	}
	logf, err := os.OpenFile(filepath.Join(c.dir, "postgres.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(filepath.Join(c.bindir, "postgres"),
		"-D", c.data(),
		"-p", strconv.Itoa(c.port),
		"-k", filepath.Join(c.dir, "sock"),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off", // a killed server keeps what it wrote: the kernel holds it
		"-c", "max_connections=200",
	)
	cmd.Dir = c.dir
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx)
		}
		cancel()
		if err == nil {
			c.cmd, c.exited = cmd, exited
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("postgres exited at start (port %d): %v\n%s", c.port, cmd.ProcessState, c.log())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			kill(cmd.Process.Pid)
			<-exited
			return fmt.Errorf("postgres accepted no connection within %v (port %d): %v\n%s", startTimeout, c.port, err, c.log())
		}
	}
}

// kill sends SIGKILL to the postmaster pid and to every server process
// it started. The children lead process groups of their own (postgres
// makes each one a group leader), so they are found by their parent: the
// postmaster is stopped first, so that it forks none while they are
// listed. kill returns once they are all gone: a new postmaster refuses
// to start while one of them still holds the shared memory.
func kill(pid int) {
	syscall.Kill(pid, syscall.SIGSTOP)
	children := childrenOf(pid)
	syscall.Kill(pid, syscall.SIGKILL)
	for _, c := range children {
		syscall.Kill(c, syscall.SIGKILL)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, c := range children {
		for alive(c) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// stat returns the fields of /proc/PID/stat after the command's name
// (state, ppid, pgrp, ...), or nil.
func stat(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// childrenOf returns the processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := stat(c); len(f) >= 2 && f[1] == strconv.Itoa(pid) {
			out = append(out, c)
		}
	}
	return out
}

// alive reports whether process pid exists and has not exited (a zombie
// holds nothing).
func alive(pid int) bool {
	f := stat(pid)
	return len(f) >= 1 && f[0] != "Z" && f[0] != "X"
}

// binDir returns the folder of PostgreSQL's server binaries: pg_config's,
// or else the highest version's under /usr/lib/postgresql.
func binDir() (string, error) {
	var dirs []string
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dirs = append(dirs, strings.TrimSpace(string(out)))
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	version := func(dir string) int {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
		if err != nil {
			return -1
		}
		return v
	}
	slices.SortFunc(matches, func(a, b string) int {
		if d := version(b) - version(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	dirs = append(dirs, matches...)
	for _, d := range dirs {
		if executable(filepath.Join(d, "initdb")) && executable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries (initdb, postgres) in pg_config --bindir or /usr/lib/postgresql/*/bin")
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// clusterDir makes the cluster's folder, owned by uid and gid when they
// are not -1. The postgres user must reach it, so every folder above it
// must let others through; t.TempDir's folders do not (0700, root's).
func clusterDir(uid, gid int) (string, error) {
	bases := []string{os.TempDir()}
	if uid >= 0 {
		bases = append(bases, "/tmp")
	}
	for _, base := range bases {
		if uid >= 0 && !traversable(base) {
			continue
		}
		dir, err := os.MkdirTemp(base, "ctxpack-pg-")
		if err != nil {
			return "", err
		}
		if uid >= 0 {
			if err := os.Chown(dir, uid, gid); err != nil {
				os.RemoveAll(dir)
				return "", err
			}
		}
		return dir, nil
	}
	return "", fmt.Errorf("no temporary folder the postgres user can reach: every folder above %s must let others through (chmod o+x), or set TMPDIR to one that does", os.TempDir())
}

// traversable reports whether others may pass through dir and every
// folder above it.
func traversable(dir string) bool {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		fi, err := os.Stat(dir)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return true
		}
		dir = parent
	}
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
