package graph

import (
	"fmt"
	"strings"
)

// edge is one link drawn in a picture.
type edge struct {
	from, to, kind string
}

// picture lists the closure's nodes (visit order, then the excluded ones)
// and every link between them, in link order.
func picture(c *Closure) (nodes []string, edges []edge, label, class map[string]string) {
	label, class = map[string]string{}, map[string]string{}
	add := func(id, l, cl string) {
		if _, ok := label[id]; ok {
			return
		}
		nodes = append(nodes, id)
		label[id], class[id] = l, cl
	}
	for _, n := range c.Nodes {
		l := n.A.ID
		if n.A.Title != "" {
			l += ": " + n.A.Title
		}
		add(n.A.ID, l, string(n.A.Type))
	}
	for _, x := range c.Excluded {
		add(x.ID, x.ID+" ("+x.Reason+")", "excluded")
	}
	for _, n := range c.Nodes {
		for _, l := range []struct {
			kind string
			ids  []string
		}{{"spec", n.A.Links.Specs}, {"decision", n.A.Links.Decisions}, {"norm", n.A.Links.Norms}} {
			for _, id := range l.ids {
				if _, ok := label[id]; ok {
					edges = append(edges, edge{n.A.ID, id, l.kind})
				}
			}
		}
		if a := n.A; a.SupersededBy != "" {
			if _, ok := label[a.SupersededBy]; ok {
				edges = append(edges, edge{n.A.ID, a.SupersededBy, "superseded_by"})
			}
		}
	}
	for _, x := range c.Excluded {
		if x.ReplacedBy != "" {
			edges = append(edges, edge{x.ID, x.ReplacedBy, "superseded_by"})
		}
	}
	return nodes, edges, label, class
}

// Mermaid draws the closure as a Mermaid flowchart, ready to paste into a
// Markdown file.
func Mermaid(c *Closure) string {
	nodes, edges, label, class := picture(c)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, id := range nodes {
		fmt.Fprintf(&b, "  %s[\"%s\"]:::%s\n", mermaidID(id), mermaidText(label[id]), class[id])
	}
	for _, e := range edges {
		arrow := "-->"
		if e.kind == "superseded_by" {
			arrow = "-.->"
		}
		fmt.Fprintf(&b, "  %s %s|%s| %s\n", mermaidID(e.from), arrow, e.kind, mermaidID(e.to))
	}
	b.WriteString("  classDef task fill:#fde68a,stroke:#92400e\n")
	b.WriteString("  classDef spec fill:#bfdbfe,stroke:#1e3a8a\n")
	b.WriteString("  classDef decision fill:#ddd6fe,stroke:#4c1d95\n")
	b.WriteString("  classDef norm fill:#bbf7d0,stroke:#14532d\n")
	b.WriteString("  classDef identity fill:#e5e7eb,stroke:#374151\n")
	b.WriteString("  classDef excluded fill:#fee2e2,stroke:#991b1b,stroke-dasharray:4\n")
	return b.String()
}

// Dot draws the closure in Graphviz's dot language.
func Dot(c *Closure) string {
	nodes, edges, label, class := picture(c)
	colors := map[string]string{"task": "#fde68a", "spec": "#bfdbfe", "decision": "#ddd6fe", "norm": "#bbf7d0", "identity": "#e5e7eb", "excluded": "#fee2e2"}
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n", dotQuote(c.Task.A.ID))
	for _, id := range nodes {
		style := ""
		if class[id] == "excluded" {
			style = ", style=\"rounded,filled,dashed\""
		}
		color := colors[class[id]]
		if color == "" {
			color = "#ffffff"
		}
		fmt.Fprintf(&b, "  %s [label=%s, fillcolor=%s%s];\n", dotQuote(id), dotQuote(label[id]), dotQuote(color), style)
	}
	for _, e := range edges {
		style := ""
		if e.kind == "superseded_by" {
			style = ", style=dashed"
		}
		fmt.Fprintf(&b, "  %s -> %s [label=%s%s];\n", dotQuote(e.from), dotQuote(e.to), dotQuote(e.kind), style)
	}
	b.WriteString("}\n")
	return b.String()
}

// mermaidID makes an id safe as a Mermaid node id.
func mermaidID(id string) string {
	var b strings.Builder
	b.WriteString("n_")
	for _, r := range id {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "_%x_", r)
		}
	}
	return b.String()
}

// mermaidText escapes a label for a quoted Mermaid node.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "\n", " ", "<", "#lt;", ">", "#gt;").Replace(s)
}

func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
