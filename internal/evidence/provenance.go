package evidence

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/render"
)

// Provenance says where a workspace file's text came from. It is kept as
// the file's provenance comment, one line:
//
//	<!-- source_uri=file://core/flow.sh; cid=sha256:…; span=lines=100:200; tags=flow,manager -->
//
// Fields are separated by "; " and appear in that order; span and tags are
// left out when empty. A file:// URI holds the project-relative path
// percent-encoded (FileURI), so no value can hold "; " or "-->".
type Provenance struct {
	URI  string   // "file://core/flow.sh", or "stdin:" for text given on standard input
	CID  string   // content id of the selected text: "sha256:" + hex
	Span string   // Selector.Span: "file", "lines=100:200"…; "" when not from a file
	Tags []string // sorted, unique
}

// FileURI is the URI of the project-relative slash path p, encoded as
// render.URIPath encodes it.
func FileURI(p string) string { return "file://" + render.URIPath(p) }

// FilePath returns the path of a file:// URI, and false for another URI.
func FilePath(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "file://")
	if !ok || rest == "" {
		return "", false
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	return p, true
}

// Comment is the provenance comment, without a newline.
func (p Provenance) Comment() string {
	fields := []string{"source_uri=" + p.URI, "cid=" + p.CID}
	if p.Span != "" {
		fields = append(fields, "span="+p.Span)
	}
	if len(p.Tags) > 0 {
		fields = append(fields, "tags="+strings.Join(p.Tags, ","))
	}
	return "<!-- " + strings.Join(fields, "; ") + " -->"
}

// Selector is the selector that makes the text again: the file's path,
// the span and the tags. It fails for a provenance that is not of a file.
func (p Provenance) Selector() (Selector, error) {
	path, ok := FilePath(p.URI)
	if !ok {
		return Selector{}, fmt.Errorf("evidence: source %q is not a project file", p.URI)
	}
	s := Selector{Path: path, Tags: p.Tags}
	if p.Span != "" {
		u, start, end, err := ParseSpan(p.Span)
		if err != nil {
			return Selector{}, err
		}
		s.Unit, s.Start, s.End = u, start, end
	}
	// The canonical round trip checks the path and the tags as a selector
	// typed by hand would be checked.
	return ParseSelector(s.String())
}

// ParseProvenance reads a provenance comment. It returns false, and no
// error, when line is not one (it does not start with "<!-- source_uri=");
// an error when it starts like one but is malformed.
func ParseProvenance(line string) (Provenance, bool, error) {
	line = strings.TrimSuffix(line, "\r")
	body, ok := strings.CutPrefix(line, "<!-- source_uri=")
	if !ok {
		return Provenance{}, false, nil
	}
	body, ok = strings.CutSuffix(body, " -->")
	if !ok {
		return Provenance{}, true, fmt.Errorf("evidence: provenance comment does not end with \" -->\"")
	}
	fields := strings.Split("source_uri="+body, "; ")
	var p Provenance
	next := 0
	for _, f := range fields {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			return Provenance{}, true, fmt.Errorf("evidence: provenance field %q has no value (want key=value)", provClip(f))
		}
		order := slices.Index(provenanceKeys, key)
		if order < 0 {
			return Provenance{}, true, fmt.Errorf("evidence: unknown provenance field %q (valid: %s)", provClip(key), strings.Join(provenanceKeys, ", "))
		}
		if order < next {
			return Provenance{}, true, fmt.Errorf("evidence: provenance field %s is repeated or out of order (the order is %s)", key, strings.Join(provenanceKeys, ", "))
		}
		next = order + 1
		switch key {
		case "source_uri":
			if val == "" {
				return Provenance{}, true, fmt.Errorf("evidence: provenance source_uri is empty")
			}
			p.URI = val
		case "cid":
			if !provCIDOK(val) {
				return Provenance{}, true, fmt.Errorf("evidence: provenance cid %q is not sha256: and 64 hex digits", provClip(val))
			}
			p.CID = val
		case "span":
			if _, _, _, err := ParseSpan(val); err != nil {
				return Provenance{}, true, err
			}
			p.Span = val
		case "tags":
			for t := range strings.SplitSeq(val, ",") {
				if !provTagOK(t) {
					return Provenance{}, true, fmt.Errorf("evidence: provenance tag %q is not 1 to 64 of A-Z a-z 0-9 _ - .", provClip(t))
				}
				p.Tags = append(p.Tags, t)
			}
			slices.Sort(p.Tags)
			p.Tags = slices.Compact(p.Tags)
		}
	}
	if p.CID == "" {
		return Provenance{}, true, fmt.Errorf("evidence: provenance has no cid")
	}
	return p, true, nil
}

var provenanceKeys = []string{"source_uri", "cid", "span", "tags"}

func provCIDOK(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// provTagOK reports whether t is a tag as selectors take it.
func provTagOK(t string) bool {
	if t == "" || len(t) > maxTagChars {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isTagByte(t[i]) {
			return false
		}
	}
	return true
}

// provClip shortens s for an error message.
func provClip(s string) string {
	if len(s) <= 60 {
		return s
	}
	return s[:57] + "..."
}
