// Package render turns an assembled context into text in one of ctxpack's
// output formats: text, markdown, doc, xml and json.
//
// Rendering is pure: the same blocks give the same bytes, with no clock,
// no absolute path and no map order. Output is a sequence of segments, one
// per block, between an opening and a closing string. Every segment ends
// with a newline, and every segment but a doc-format block that continues
// its document's run (no run header; the block's own text comes first)
// starts with a marker character, so BPE tokenization rarely merges
// across segment boundaries and the engine can cost each block on its
// own. The engine does not rely on it: where a joint could merge
// (tokenizer.SafeBoundary), it counts the whole text.
//
// The xml format is well-formed XML 1.0 whatever the blocks hold: each
// block's text is one CDATA section, so code reads as it is ("<" and "&"
// included) and a "]]>" in it is split across two sections; its source
// and the metadata comment are escaped; characters XML does not allow
// (the C0 controls but tab, newline and carriage return, U+FFFE, U+FFFF,
// invalid UTF-8) are written as U+FFFD. A parser reads it back as the
// texts, with those replaced and, as XML's end-of-line rule says, a
// carriage return read as a newline. The engine counts these bytes, as
// it counts every format's.
//
// The json format is a plan (the schema of DESIGN §8) whose "content" is
// the same context rendered as text. An evidence assembly's plan is also
// rendered as ctxplan.json (CtxPlan): every file of the workspace, with
// the statuses and need_budget of the plan and what only the workspace
// knows of each file (rank, role, kind, provenance).
package render
