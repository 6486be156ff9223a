package store

import (
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/project"
)

// The canonical form of a row is what its content id (the cid column,
// project.ContentID of the form) is computed from, at insert: its kind,
// then one line per field but the id, "name value", strings quoted by
// strconv.Quote (lossless, so two rows share a form only when every
// field is equal), numbers in Go's shortest form. StateRoot reads the
// stored ids, so changing a form changes every root: bump FormatVersion
// and recompute them in the migration.

type canon struct{ b strings.Builder }

func newCanon(kind string) *canon {
	c := &canon{}
	c.b.WriteString(kind)
	c.b.WriteByte('\n')
	return c
}

func (c *canon) str(name, v string) *canon {
	c.b.WriteString(name)
	c.b.WriteByte(' ')
	c.b.WriteString(strconv.Quote(v))
	c.b.WriteByte('\n')
	return c
}

func (c *canon) int(name string, v int64) *canon {
	c.b.WriteString(name)
	c.b.WriteByte(' ')
	c.b.WriteString(strconv.FormatInt(v, 10))
	c.b.WriteByte('\n')
	return c
}

func (c *canon) float(name string, v float64) *canon {
	c.b.WriteString(name)
	c.b.WriteByte(' ')
	c.b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	c.b.WriteByte('\n')
	return c
}

func (c *canon) cid() string { return project.ContentID(c.b.String()) }

func memoryCID(m Memory) string {
	return newCanon("memory").str("content", m.Content).str("category", m.Category).
		float("importance", m.Importance).int("created", m.Created).cid()
}

func experienceCID(e Experience) string {
	return newCanon("experience").str("domain", e.Domain).str("strategy", e.Strategy).
		str("goal", e.Goal).str("hypothesis", e.Hypothesis).str("action", e.Action).
		str("prediction", e.Prediction).str("outcome", string(e.Outcome)).str("result", e.Result).
		str("surprise", e.Surprise).str("root_cause", e.RootCause).str("lesson", e.Lesson).
		str("confidence", string(e.Confidence)).int("iterations", int64(e.Iterations)).
		int("created", e.Created).cid()
}

func valueCID(v Value) string {
	c := newCanon("value").str("text", v.Text).str("axis", string(v.Axis)).
		str("cluster", v.Cluster).int("cluster_size", int64(v.ClusterSize)).
		float("similarity", v.Similarity).int("experience", v.Experience)
	for _, t := range v.Tags {
		c.str("tag", t)
	}
	return c.int("created", v.Created).cid()
}

func commitCID(cm history.Commit) string {
	c := newCanon("commit").str("sha", cm.SHA).str("author", cm.Author).str("email", cm.Email).
		int("time", cm.Time).str("message", cm.Message)
	for _, f := range cm.Files {
		c.str("file", strconv.Itoa(f.Added)+" "+strconv.Itoa(f.Deleted)+" "+f.Path)
	}
	return c.int("insertions", int64(cm.Insertions)).int("deletions", int64(cm.Deletions)).cid()
}
