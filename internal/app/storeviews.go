package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/store"
)

// The views below are the store's rows as the CLI's json format and the
// MCP server's tools show them: one shape for both. Times are RFC 3339 in
// UTC; keys are the part keys sources mode gives the rows.

// MemoryView is a memory as shown.
type MemoryView struct {
	Key        string  `json:"key"` // memory:42
	ID         int64   `json:"id"`
	Content    string  `json:"content"`
	Category   string  `json:"category"`
	Importance float64 `json:"importance"`
	Created    string  `json:"created"`
}

// ViewMemory is m as shown.
func ViewMemory(m store.Memory) MemoryView {
	return MemoryView{Key: rowKey("memory", m.ID, m.Namespace), ID: m.ID, Content: m.Content, Category: m.Category, Importance: m.Importance, Created: unixTime(m.Created)}
}

// ExperienceView is an experience as shown.
type ExperienceView struct {
	Key        string `json:"key"` // experience:12
	ID         int64  `json:"id"`
	Domain     string `json:"domain"`
	Strategy   string `json:"strategy,omitempty"`
	Goal       string `json:"goal"`
	Hypothesis string `json:"hypothesis"`
	Action     string `json:"action"`
	Prediction string `json:"prediction"`
	Outcome    struct {
		Status string `json:"status"`
		Result string `json:"result"`
	} `json:"outcome"`
	Surprise   string `json:"surprise,omitempty"`
	RootCause  string `json:"root_cause,omitempty"`
	Lesson     string `json:"lesson,omitempty"`
	Confidence string `json:"confidence"`
	Iterations int    `json:"iterations"`
	Created    string `json:"created"`
}

// ViewExperience is e as shown.
func ViewExperience(e store.Experience) ExperienceView {
	v := ExperienceView{
		Key: rowKey("experience", e.ID, e.Namespace), ID: e.ID, Domain: e.Domain, Strategy: e.Strategy,
		Goal: e.Goal, Hypothesis: e.Hypothesis, Action: e.Action, Prediction: e.Prediction,
		Surprise: e.Surprise, RootCause: e.RootCause, Lesson: e.Lesson,
		Confidence: string(e.Confidence), Iterations: e.Iterations, Created: unixTime(e.Created),
	}
	v.Outcome.Status, v.Outcome.Result = string(e.Outcome), e.Result
	return v
}

// ValueView is a value as shown.
type ValueView struct {
	Key         string   `json:"key"` // value:3
	ID          int64    `json:"id"`
	Text        string   `json:"text"`
	Axis        string   `json:"axis"`
	Cluster     string   `json:"cluster,omitempty"`
	ClusterSize int      `json:"cluster_size"`
	Similarity  float64  `json:"similarity_to_centroid"`
	Experience  string   `json:"experience,omitempty"` // experience:12
	Tags        []string `json:"tags"`
	Created     string   `json:"created"`
}

// ViewValue is v as shown.
func ViewValue(v store.Value) ValueView {
	out := ValueView{
		Key: rowKey("value", v.ID, v.Namespace), ID: v.ID, Text: v.Text, Axis: string(v.Axis), Cluster: v.Cluster,
		ClusterSize: v.ClusterSize, Similarity: v.Similarity, Tags: v.Tags, Created: unixTime(v.Created),
	}
	if v.Experience != 0 {
		out.Experience = rowKey("experience", v.Experience, v.Namespace)
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	return out
}

// ProposalView is a value `value derive` proposes: the lesson of the
// experience most central to a cluster.
type ProposalView struct {
	Axis       string   `json:"axis"`
	Cluster    string   `json:"cluster"` // full/3
	Size       int      `json:"size"`
	Members    []string `json:"members"`    // experience:12, by id
	Experience string   `json:"experience"` // the central member's key
	Similarity float64  `json:"similarity_to_centroid"`
	Tags       []string `json:"tags"`
	Text       string   `json:"text"`
}

// ViewProposal is p as shown.
func ViewProposal(p store.Proposal) ProposalView {
	v := ProposalView{
		Axis: string(p.Axis), Cluster: p.Cluster, Size: p.Size, Members: make([]string, 0, len(p.Members)),
		Experience: ItemKey("experience", p.Experience), Similarity: p.Similarity,
		Tags: append([]string{}, p.Tags...), Text: p.Text,
	}
	for _, id := range p.Members {
		v.Members = append(v.Members, ItemKey("experience", id))
	}
	return v
}

// ItemKey is the key of a store row of the store's own namespace:
// "memory:42".
func ItemKey(kind string, id int64) string { return kind + ":" + strconv.FormatInt(id, 10) }

// rowKey is the key of a store row read from namespace ns ("" for the
// store's own): "memory:42", or "value:3@team" from a shared namespace.
func rowKey(kind string, id int64, ns string) string {
	return store.RowKey(kind, strconv.FormatInt(id, 10), ns)
}

// ParseItemID reads the id of a store row of the given kind (memory,
// experience, value) from "42" or "memory:42".
func ParseItemID(kind, s string) (int64, error) {
	t := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(t, kind+":"); ok {
		t = rest
	}
	if num, ns, ok := strings.Cut(t, "@"); ok && store.ValidNamespace(ns) {
		if _, err := strconv.ParseInt(num, 10, 64); err == nil {
			return 0, fmt.Errorf("ctxpack: %s is a row of the shared namespace %s, which this project reads but does not change: run with %s=%s to change it", s, ns, EnvStoreNamespace, ns)
		}
	}
	id, err := strconv.ParseInt(t, 10, 64)
	if err != nil || id <= 0 {
		article := "a"
		if strings.ContainsRune("aeiou", rune(kind[0])) {
			article = "an"
		}
		return 0, fmt.Errorf("ctxpack: %q is not %s %s id: give its number (42) or key (%s:42)", s, article, kind, kind)
	}
	return id, nil
}

func unixTime(t int64) string {
	if t == 0 {
		return ""
	}
	return time.Unix(t, 0).UTC().Format(time.RFC3339)
}
