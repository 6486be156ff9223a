// Package embed turns texts into vectors for semantic search (DESIGN §5):
// the Embedder interface and its two providers, an OpenAI-compatible HTTP
// endpoint (HTTP) and static embeddings the user supplies (Static), with
// the vector helpers the search uses.
//
// # Use
//
//	e, err := embed.FromConfig(cfg.Embed, root, os.Getenv) // nil when none is configured
//	vecs, err := e.Embed(ctx, []string{"invoice rounding", "func Round(…)"})
//
// # Contracts
//
//   - Nothing is downloaded. HTTP talks to the one endpoint it is given,
//     and only when Embed is called; Static reads the files it is given,
//     once, in LoadStatic. FromConfig shares a static model within the
//     process: it loads it again only when one of its files' size or
//     modification time changed.
//   - Identity. Embedder.ID changes whenever the vectors would: HTTP's
//     names the model, the URL and the input limit; Static's hashes its
//     files and the version of its tokenization. Stored vectors are keyed
//     by it. (A server that serves new weights under an old model name is
//     not noticed.)
//   - Deterministic. Static's vectors depend only on its files and the
//     text. Top and Dot give the same result on every platform and
//     whatever the order of their input: scores are summed in float64
//     (exact products of float32), quantized to 1e-6, and ordered by score
//     descending, then by the caller's key.
//   - Checked. Every vector an Embedder returns is non-empty and finite,
//     with one length per call; HTTP also checks the count and the order
//     (data[].index) of the server's answer. Every size and offset read
//     from a file is bounded before it is used.
//   - Errors start with "embed: " and name the URL (with its status and the
//     server's message) or the file (and, for text vectors, the line:
//     *LineError). API keys never appear in IDs or errors.
//   - HTTP and Static are safe for concurrent use; Top is not. The one
//     mutable package-level state is FromConfig's cache of static models
//     (at most four, by path), safe for concurrent use; a model it returns
//     is the one its files held when it was loaded.
package embed
