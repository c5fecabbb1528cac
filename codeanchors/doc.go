// Package codeanchors finds symbols in source files, hashes their line
// ranges, keeps the lock file's anchors and evidence, and judges drift: did
// the anchored code change, move or vanish, or did the requirement change
// after it was verified. This comment defines the formats exactly enough to
// reimplement them.
//
// # Symbols
//
// A [Language] per language, each in its own package (codeanchors/golang,
// codeanchors/python, codeanchors/javascript; codeanchors/lang says how to
// add one), turns a file's bytes into a [File]: its symbols with 1-based,
// inclusive line ranges, the names that are ambiguous (defined more than
// once, so no target may bind to them), its code tokens and its imports;
// it also links imports and calls, names its project files and its tests,
// and matches test reports. [Default] registers them and maps file
// extensions to them. The Go extractor (golang.Extract, parser "go/ast@1")
// uses go/parser:
//
//	func Name             Name
//	func (r *Recv[T]) M   Recv.M (receiver base type: no pointer, no type parameters)
//	type Name ...         Name, for every TypeSpec, also inside type ( ... )
//
// A function's range runs from its func line to its closing line, doc
// comment excluded; a type's from its spec's first line (the type keyword's
// line when not grouped) to the spec's last line. [IsTest] is the one
// helper that decides whether a symbol is a test.
//
// # Hashes
//
// Both hashes are "sha256:" followed by the lower-case hex SHA-256 digest.
//
// hash ([lang.HashLines]) covers the range's lines: the source is split at "\n",
// a "\r" ending a line is dropped, trailing spaces and tabs are stripped
// from each line, and the lines from start to end are joined by "\n" with
// no final newline. Indentation and comments count.
//
// token_hash ([lang.HashTokens]) covers the code tokens that start on the
// range's lines: each token's text followed by one NUL byte. Go tokens are
// go/scanner's, comments dropped, normalized so that a gofmt run cannot
// change them while any other edit does (see goTokens in golang/golang.go for the
// exact rules: semicolons, trailing commas, clause parentheses, number
// literal case). Python tokens (python.Extract, parser "python@2") keep
// NEWLINE, INDENT and DEDENT, since indentation is syntax, and drop what a
// formatter such as black changes without changing the program (quote
// style, string prefixes, docstring indentation, number case, trailing
// commas, redundant parentheses, ';' versus a line break); the exact rules
// are on python.Extract. JavaScript and TypeScript tokens are described on
// javascript.Extract. A file no language claims uses [lang.WordTokens]: every
// run of non-space bytes of a line.
//
// When hash differs but token_hash is equal, only formatting or comments
// changed: the link stays linked and is marked reformatted.
//
// body_hash ([lang.HashBody], symbols only) is token_hash with every token
// whose text is exactly the symbol's own name, the last dot-separated part
// of it ([lang.BodyName]: "Total" of "Cart.Total"), hashed as "_": the
// declaration's name, a recursive call, wherever the name is an identifier
// token (a string or comment mentioning it is another token, or none). A
// rename keeps it; [Locate] finds a lost symbol by it (same_body). For an
// anchor without one, [Anchor.Body] computes it from the captured text.
//
// # The lock file
//
// [Lock] is JSON with sorted keys, two-space indentation and a final
// newline: {"anchors": {REF: Anchor}, "evidence": [Evidence],
// "schemaVersion": 1}. Anchors are keyed by target ref; evidence is sorted
// by requirement, then run. [ParseLock] refuses a lock that is not valid
// (wrapping [ErrCorruptLock]) or comes from a newer schema.
//
// # Drift
//
// [Resolve] finds a target in the current source; [Judge] compares the
// result with the captured anchor and decides the [Verdict]: the only place
// a code link's state is decided. [JudgeEvidence] does the same for an
// evidence entry against its requirement's current revision. Each [Reason]
// has its state and its why in English and Spanish in one table
// (reasons.go).
package codeanchors
