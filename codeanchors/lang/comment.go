package lang

// Comment is one comment of a source file as written, delimiters included
// ("// x", "/** ... */", "# x", a Python docstring), with the
// lines it starts and ends on (1-based, inclusive). Extractors hand every
// comment out once, in source order, so that what reads comments (markers
// tied to the symbol they sit in or precede) never lexes a language again.
type Comment struct {
	Line, EndLine int
	Text          string
	// Doc marks a documentation string that is code to the language (a
	// Python docstring) rather than a comment.
	Doc bool
}
