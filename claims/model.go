package claims

import "strings"

// Model is the parsed content of a wiki. It is built once by [Parse] and read,
// never changed, by every later stage. Each slice is sorted by its unique key
// (ID for requirements and decisions, Path for pages).
type Model struct {
	Requirements []*Requirement
	Decisions    []*Decision
	Pages        []*Page
	// Documents are the requirement documents: every folder under
	// requirements/ that holds requirements or documents, sorted by Path.
	Documents []*Document
}

// TargetRef is a code target as written at one place in the content, or
// in a code comment (Marker: Pos is then the marker's PATH:LINE, SPEC 1.6).
type TargetRef struct {
	Target Target
	Pos    Pos
	Marker bool
	// Artifacts are the OpenFastTrace artifact types the markers of this
	// link name (utest, itest, impl), so that an item needing itest is not
	// met by a utest tag as OpenFastTrace's rules say; none when some
	// declaration of the link names no type (front matter, the other
	// marker formats), which then meets any need of its role.
	Artifacts []string
}

// IDRef is a requirement or decision id as written at one place.
type IDRef struct {
	ID  string
	Pos Pos
}

// Requirement is one file under content/requirements.
type Requirement struct {
	ID         string // frontmatter id, or the file name without .md
	Title      string
	Status     string // proposed, accepted, rejected or deprecated; "" when not given
	Implements []TargetRef
	Tests      []TargetRef
	Issues     []IDRef // decision ids
	Doc        Doc
	// Revision is "sha256:" + the hex digest of the normalized title and
	// body (see [Revision]); evidence is recorded against it.
	Revision string
	// LegacyRevision is the same text's [LegacyRevision], which locks
	// recorded before Revision ignored paragraph wrapping: an entry
	// recorded against it is still valid (see [Requirement.Revisions]).
	LegacyRevision string

	// Document is the folder under requirements/ that holds the file
	// ("system/brakes"); "" for a requirement at the top level.
	Document string
	// Level orders the requirement in its document ("1.2.3", compared
	// numerically by [CompareLevels]); "" when not given.
	Level string
	// Parents are the requirements this one refines, as written.
	Parents []IDRef
	Tags    []string
	// Fields are custom fields, by name, as text: a list's items joined
	// by ", ".
	Fields map[string]string
	// FieldValues are the same fields as written, with their types and
	// places, for the typed fields of the config ([CheckFields]).
	FieldValues map[string]FieldValue
	// Waivers justify the violations of policy rules (SPEC 1.7), in the
	// order written.
	Waivers []Waiver
	// Normative is false for headings and notes, which coverage skips.
	Normative bool
	// Derived marks a requirement that expects no parent.
	Derived bool
	// Imported records where an imported file came from; nil otherwise.
	Imported *Imported
}

// Revisions is r's revision in both forms: a lock entry recorded against
// either is recorded against r's current text (SPEC 1.2).
func (r *Requirement) Revisions() Revisions {
	return Revisions{Current: r.Revision, Legacy: r.LegacyRevision}
}

// Imported is the imported: frontmatter of a file written by tracewiki
// import: the source it came from and the hash of the file as written, so
// a later import can tell whether a person edited it.
type Imported struct {
	From string
	Hash string
}

// Document is a requirement document: a folder under requirements/, titled
// by its _index.md.
type Document struct {
	// Path is the folder under requirements/: "system/brakes".
	Path   string
	Title  string // the _index.md title, else the folder's name
	Prefix string // optional id prefix, as written
	// Doc is the _index.md (its body is the document's introduction);
	// Doc.File is "" when the folder has none.
	Doc Doc
}

// Parent returns the path of the document that holds d, "" for a top-level
// document.
func (d *Document) Parent() string {
	i := strings.LastIndexByte(d.Path, '/')
	if i < 0 {
		return ""
	}
	return d.Path[:i]
}

// Decision is one file under content/decisions: a decision, issue or ADR.
type Decision struct {
	ID         string
	Title      string
	Status     string // open, accepted, superseded, rejected or closed
	Date       string // as written, "" when not given
	Supersedes []IDRef
	Doc        Doc
}

// Page is a wiki page: every other Markdown file under content, or a page
// synthesized from claim records when no Markdown file exists at its path.
type Page struct {
	// Path is the content path without .md, slash-separated: "guides/login".
	Path    string
	Title   string
	Type    string   // overview, implementation, guide, reference, ...; "" when not given
	Sources []string // documents the page draws on, never code
	// Synthesized is true for a page made only from claim records.
	Synthesized bool
	Doc         Doc
}

// Doc is what every content file has: where it is, its Markdown body and what
// the body and frontmatter declare.
type Doc struct {
	File     string // root-relative path of the file
	Body     []byte // the Markdown after the frontmatter
	BodyLine int    // line of File on which Body starts; 0 for a synthesized page
	// Headings are the ids of the body's headings in document order, as
	// [HeadingIDs] computes them: the anchors a page link may name.
	Headings []string
	Claims   []Claim
	Links    []Link // req:, dec: and page links, in source order
	// Images are the body's relative images, in source order: files of the
	// content folder the site publishes beside its pages.
	Images []Image
}

// Claim is a statement about code: a sentence holding a code: link, a
// frontmatter claim or a claim record.
type Claim struct {
	Text   string
	Kind   string // from frontmatter or records; "" for Markdown claims
	Origin string // where tracewiki read it: markdown, frontmatter or record
	// Source is the payload's own "origin" field of a frontmatter claim or
	// claim record (who or what made the claim, e.g. "agent"), as written;
	// "" for Markdown claims.
	Source     string
	Confidence float64 // 0 when not given
	// Target is the code the claim points at. HasTarget is false for a claim
	// without code (an operational note): it keeps its text and is never
	// given an invented link.
	Target    Target
	HasTarget bool
	Pos       Pos
	// Start and End are byte offsets of the claim sentence in Doc.Body, for
	// Markdown claims; both 0 otherwise.
	Start, End int
}

// Claim origins.
const (
	OriginMarkdown    = "markdown"
	OriginFrontmatter = "frontmatter"
	OriginRecord      = "record"
)

// LinkKind says what a [Link] points at.
type LinkKind string

// Link kinds.
const (
	LinkRequirement LinkKind = "req"  // [REQ-3](req:REQ-3)
	LinkDecision    LinkKind = "dec"  // [FAU-9](dec:FAU-9)
	LinkPage        LinkKind = "page" // [Login](../flows/login.md#errors)
)

// Link is a link from a document to a requirement, decision or page.
type Link struct {
	Kind LinkKind
	// To is the requirement or decision id, or for a page link the target
	// page's content path without .md ("flows/login").
	To string
	// Fragment is the heading anchor of a page link, without '#'.
	Fragment string
	Pos      Pos
	// Off is the byte offset in Doc.Body of the link's node (goldmark's
	// ast.Link Pos), so a renderer can find the link it parses again.
	Off int
}

// Image is a Markdown image with a relative path, ![logo](assets/logo.png):
// a file of the content folder, which the build publishes and the page
// shows, as GitHub shows it beside the Markdown.
type Image struct {
	// To is the image file's content path ("requirements/SRD/assets/logo.png").
	To  string
	Pos Pos
	// Off is the byte offset in Doc.Body of the image's node (goldmark's
	// ast.Image Pos), so a renderer can find the image it parses again.
	Off int
}
