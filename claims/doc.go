// Package claims is tracewiki's content model and its parsing: requirements,
// decisions, wiki pages and the claims they make about code.
//
// [Parse] reads the files of the content directory (bytes and names; it
// never opens a file) into a [Model], and reports every problem it finds as
// a [Diagnostic]. A [Parser] does the same and keeps each file's parse for
// its next call, so that after an edit only the changed files are parsed
// again (serve); the values of a model are read-only. This comment is the
// specification of the formats it reads.
//
// # Files
//
// Each file is classified by its path under the content directory
// (normally "content"):
//
//	requirements/**/*.md                a requirement (not _index.md)
//	requirements/DIR/**/_index.md       a requirement document's title and introduction
//	decisions/*.md                      a decision, issue or ADR
//	claims/*.json, *.yaml, *.yml        a batch of claim records
//	every other **/*.md                 a wiki page
//
// Every folder under requirements/ is a requirement [Document]
// ("system/brakes"); documents nest. A requirement in requirements/ itself
// belongs to no document, and requirements/_index.md is a page. Only the
// top level of decisions/ and claims/ counts: decisions/old/D-1.md is a page. Other files (images, .txt) and files
// outside the content directory are ignored. A page's Path is its content
// path without .md ("guides/login"; index.md is "index"). A UTF-8 byte order
// mark at the start of a file is ignored.
//
// # Frontmatter
//
// A Markdown file may start (after blank lines) with YAML frontmatter between
// "---" lines or TOML frontmatter between "+++" lines. A file without
// frontmatter takes every default. A frontmatter that is opened but never
// closed is a syntax diagnostic, and the whole file is then the body.
//
// Requirement keys:
//
//	id          the id; default: the file name without .md
//	title       default: the text of the body's first level-1 heading,
//	            else the id
//	status      proposed, accepted, rejected or deprecated; default none
//	implements  list of targets: the code that implements it
//	tests       list of targets: the tests that check it
//	issues      list of decision ids
//	claims      list of claims (below)
//	params      anything: custom data for templates, never checked
//	level       the order in its document: numbers joined by dots ("1.2.3"),
//	            compared numerically ([CompareLevels]); a trailing .0 (a
//	            Doorstop heading, "2.0") sorts as "2"; default: after every
//	            level, in natural id order ([CompareIDs])
//	parent      a requirement id, or a list of them: the requirements this
//	            one refines (many allowed; an unknown id is unknown-ref; a
//	            cycle is bad-field, reported once, naming every requirement
//	            on it and its file)
//	tags        a string or a list of strings
//	fields      a mapping of custom names to strings (or lists of
//	            strings); [fields.NAME] in tracewiki.toml may type them
//	            ([CheckFields], docs/policy.md); a needs field ("impl,
//	            utest") is read by the built-in policy rule [NeedsRule]
//	waivers     a list of {rule, reason, by, date}: each justifies the
//	            violation of one policy rule ([Waiver]) until the text
//	            changes; rule and reason required, date YYYY-MM-DD
//	normative   true (default) or false for headings and notes
//	derived     true: no parent expected
//	imported    {from, hash}: written by tracewiki import
//
// Requirement document keys (_index.md): title (default: the body's first
// level-1 heading, else the folder's name), prefix (an id prefix, as
// written), imported, params. The body is the document's introduction.
//
// Decision keys:
//
//	id          the id; default: the file name without .md
//	title       as for requirements
//	status      open, accepted, superseded, rejected or closed
//	date        as written (YAML or TOML dates are kept as written)
//	supersedes  a decision id, or a list of them
//	claims, params
//
// Page keys:
//
//	title       default: the first level-1 heading, else the file name
//	            without .md
//	type        free word: overview, implementation, guide, reference, ...
//	sources     list of strings: the documents the page draws on, never
//	            code (a source starting with "code:" is a diagnostic)
//	claims, params
//
// Any other key is an unknown-key diagnostic naming it and the keys of that
// kind, so that a typo ("implement:") never silently does nothing. A value
// of the wrong type or outside its set is a bad-field diagnostic at the
// value's line, and the field keeps its default; a key given twice is
// bad-field too (the first wins). A scalar where a string is wanted is taken
// as written ("title: 2024" is "2024"); null is the same as absent. Lines of
// YAML values are exact; TOML parsers do not report where keys are, so for
// TOML a key is found on the first line of its table's section that assigns
// it, a table at its [header], and an element of an array of tables at its
// [[header]]. Syntax errors are reported where yaml.v3 or the TOML parser
// says; yaml.v3 names the line of the construct in error, which may be
// before the offending line.
//
// # Ids
//
// A requirement or decision id is a letter or digit followed by letters,
// digits, '.', '_', '-' and '~', ASCII only, at most 128 bytes: REQ-3, FAU-9,
// 0001-use-go, dsn~login~1 (OpenFastTrace's type~name~revision). Ids are unique per kind: two requirements (or two decisions)
// with one id are a dup-id diagnostic at both files, and so are ids that
// differ only in case, since ids become file names. Both stay in the model.
//
// # Targets
//
// A target is the notation of [ParseTarget]: PATH@SYMBOL, PATH or
// PATH#L10-L24, PATH relative to the workspace root. In Markdown links it is
// written with the code: scheme ("code:src/order.go@Order.Validate");
// frontmatter lists accept it with or without code:, and also the canonical
// URI code://REPO/PATH#symbol-SYMBOL (see [ParseCodeURI]; REPO is ignored).
// A target that does not parse is a bad-target diagnostic, and the claim or
// list entry that holds it is dropped.
//
// # Markdown
//
// The body is CommonMark with GitHub tables, strikethrough and task lists
// (see [MarkdownParser]). It is read through goldmark's syntax tree, so
// nothing in code blocks, code spans or raw HTML is ever taken for a link.
// Links (inline or reference style; not autolinks, not images) are read by
// destination:
//
//	code:TARGET              a claim (below)
//	req:ID                   a link to a requirement
//	dec:ID                   a link to a decision
//	PATH.md, PATH.md#frag    a link to a page
//	#frag                    a link to a heading of this document
//	other (http:, mailto:, //host, images, non-.md files): ignored
//
// Schemes are case-insensitive. A req: or dec: link with a malformed id is a
// bad-link diagnostic. A page link is resolved as GitHub resolves it when
// the repository is browsed: against the file's directory, or against the
// root when it starts with '/'; percent escapes in the path are decoded and
// a ?query is dropped. It must stay inside the content directory (else
// bad-link) and becomes the content path without .md ("flows/login"). A page
// link to a requirement or decision file becomes a requirement or decision
// link to its id.
//
// Heading anchors are goldmark's automatic heading ids, made from the
// heading's source line: ASCII letters and digits lowercased, spaces, '-'
// and '_' as '-', everything else dropped, "heading" when nothing is left,
// and "-1", "-2", ... appended to repeats. [HeadingIDs] computes them and
// Doc.Headings holds them.
//
// # Claims
//
// A Markdown link to code: makes the sentence that holds it a claim. The
// sentence is cut from the plain text of the block that holds the link (a
// paragraph, list item, heading or table cell; sentences never cross
// blocks): link text is kept, markup dropped, backslash escapes and entity
// references resolved, and white space collapsed. A sentence ends after a
// run of '.', '!' or '?' (and any closing ')', ']', quote or guillemet right
// after it) that is followed by white space or the end of the block. So
// "3.5", "main.go" and terminators in code spans, autolinks or link
// destinations end nothing, while abbreviations such as "e.g." followed by a
// space do end a sentence; that is accepted. Claim.Start and End are the body
// offsets of the sentence, markup of an inline that starts or ends it
// included. A sentence with several code links makes one claim per link.
//
// A claim may also be declared in frontmatter, in the KnowledgeRail shape:
//
//	claims:
//	  - text: Checkout validates the cart.      # required
//	    kind: behavior                           # free word
//	    origin: knowledgerail                    # kept as Claim.Source
//	    confidence: 0.92                         # a number
//	    target:
//	      code_resource_uri: code://acme/src/cart.go#symbol-Cart.Validate
//
// The target may instead be the short form {ref: "src/cart.go@Cart"}, and
// may be left out: a claim without a target (an operational note) is kept as
// text with HasTarget false and is never given an invented link. Giving
// both code_resource_uri and ref, a claim without text, or an unknown key in
// a claim or its target is a diagnostic, and the claim is dropped (unknown
// keys only report). Claim.Origin says where tracewiki read a claim
// (markdown, frontmatter, record); the payload's own origin is
// Claim.Source. A document's own claims are in source order: frontmatter
// claims first.
//
// # Claim records
//
// A file under claims/ holds a batch of claims: {"claims": [...]} (with an
// optional free "params") or a bare list, in JSON or YAML. Each claim has
// the shape above, and its target also names the page it goes on:
//
//	{"text": "...", "kind": "...", "origin": "...", "confidence": 0.7,
//	 "target": {"code_resource_uri": "code://acme/src/pay.go#symbol-Retry",
//	            "page_path": "payments/overview",
//	            "page_title": "Payments", "page_type": "overview"}}
//
// page_path is a content path with or without .md; one that is missing or
// leaves the content directory is a bad-field diagnostic and the claim is
// dropped. When a document exists at page_path (a page, or a requirement or
// decision file), the claim is appended to its claims; page_title and
// page_type are then ignored. Otherwise Parse synthesizes a page there
// (Synthesized true) with the first page_title given (default: the last
// path element) and page_type, whose Doc.File is the first records file
// that names it and whose claims are the records; a later record that gives
// another title or type is a bad-field diagnostic. Records are placed in
// file name order, then file order. A record claim's position is its
// records file and the line of its object (JSON lines are found from the
// decoder's offsets).
//
// # References
//
// Once every file is read, Parse reports as unknown-ref: an issues,
// supersedes or dec: id that names no decision, a req: id that names no
// requirement, a page link to a path where no document exists, and a link
// whose #fragment is not one of the target document's heading ids. A
// decision that supersedes itself is bad-field.
//
// # Revision
//
// A requirement's revision is [Revision] of its title and body: "sha256:"
// followed by the lowercase hex SHA-256 of
//
//	normalized title + "\n\n" + normalized body
//
// where the title is normalized by removing leading and trailing white
// space (Go's strings.TrimSpace), and the body by replacing every "\r\n"
// with "\n", putting each paragraph on one line (below), splitting at
// "\n", removing trailing spaces and tabs from each line, dropping empty
// lines at the start and at the end, and joining the lines with "\n" (no
// final newline). The body is the bytes after the frontmatter's closing
// line.
//
// A paragraph is one as the Markdown parser sees it ([ParseMarkdown]): list
// items' text, block quotes' and lazy continuation lines included, tables
// not. In its text a soft line break, with the next line's indentation and
// "> " markers, becomes one space, and a run of spaces and tabs one space.
// A hard line break stays a line break, written as a backslash and "\n"
// whichever way it was spelled (two trailing spaces or a backslash, which
// Markdown does not tell apart). Everything else is kept as written:
// headings, code blocks (fenced or indented), tables, HTML, list markers,
// blank lines. So re-wrapping a paragraph, or changing line endings,
// trailing white space (but a hard break's) or surrounding blank lines,
// keeps the revision; any other change (a word, a list item, a heading, a
// code block, a table's spacing, an inner blank line) makes a new one, and
// evidence recorded against the old revision expires. A body the parser
// refuses ([MaxIndent], invalid UTF-8) is hashed with its lines as written.
//
// [LegacyRevision] is the earlier form, which kept every line as written.
// Locks recorded it before; an entry recorded by either form is valid
// while that form of the current text gives its value
// ([Requirement.Revisions]).
//
// # Diagnostics
//
// Every problem is a [Diagnostic] with a stable code; Parse reports all of
// them, sorted, and still returns the model of what could be read:
//
//	syntax       malformed frontmatter, JSON or YAML; frontmatter that is
//	             not a mapping; frontmatter never closed
//	unknown-key  a key this format does not have
//	bad-field    a value of the wrong type or outside its set, a repeated
//	             key, an invalid id, a claim without text, a record without
//	             page_path
//	bad-target   a code target that does not parse
//	bad-link     a req:/dec: link with a malformed id, a page link that
//	             leaves the content directory
//	dup-id       two requirements or two decisions with one id
//	unknown-ref  an id, page or heading that does not exist
//
// Positions are file:line:col with the root-relative file name, a 1-based
// line of the file (frontmatter included) and a 1-based byte column; a
// problem of the whole file (a duplicate id taken from the file name) has
// no line.
package claims
