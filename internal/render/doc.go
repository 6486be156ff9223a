// Package render turns an assembled context into text in one of ctxpack's
// output formats: text, markdown, doc, xml and json.
//
// Rendering is pure: the same blocks give the same bytes, with no clock,
// no absolute path and no map order. Output is a sequence of segments, one
// per block, between an opening and a closing string. Every segment ends
// with a newline and starts with a marker character, never with
// whitespace, so BPE tokenization does not merge across segment
// boundaries in practice and the engine can cost each block on its own;
// the engine still verifies the count of the whole.
//
// The json format is a plan (the schema of DESIGN §8) whose "content" is
// the same context rendered as text.
package render
