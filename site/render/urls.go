package render

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// The site's URL scheme, and the one place it is written: every page is
// a folder with an index.html and an index.json twin; links between pages
// are relative, so the site works under any base URL and from the file
// system. TestNodeURLs checks that every node's URL is a page of the
// output, and TestOnlyURLsBuildPaths that no other file builds one.
//
//	requirements/ID/     decisions/ID/     pages/PATH/    documents/FOLDER/
//	code/PATH/           tests/PATH/SYMBOL/   runs/ID/
//	symbols live on their file's page, at #sym-SYMBOL.
//
// A node's folder is its kind's [synth.Kind.Dir]; the kinds with an index
// page have it there too. The pages that are no node's: the home page ("")
// and the indexes.
var (
	requirementsDir = synth.KindOf(claims.NodeRequirement).Dir
	decisionsDir    = synth.KindOf(claims.NodeDecision).Dir
	pagesDir        = synth.KindOf(claims.NodePage).Dir
	codeDir         = synth.KindOf(claims.NodeFile).Dir
)

const driftDir = "drift"

// SearchDir is the search page's folder; its JSON twin is the search index.
const SearchDir = "search"

// filterDir is the folder of the requirements matrix filtered by slug.
func filterDir(slug string) string { return requirementsDir + "/filter/" + slug }

// nodeDir returns the folder of a node's own page, relative to the site
// root, or "" for a node that has none (a symbol: it lives on its file's
// page).
func nodeDir(n synth.Node) string {
	k := synth.KindOf(n.Type)
	switch {
	case k.Dir == "":
		return ""
	case k.Code && k.Named: // a test: tests/PATH/NAME
		return k.Dir + "/" + pathSegments(n.Path) + "/" + segment(testName(n))
	case k.Code: // a file: code/PATH
		return k.Dir + "/" + pathSegments(n.Path)
	case k.Nested:
		return k.Dir + "/" + pathSegments(n.ID.Key)
	}
	return k.Dir + "/" + segment(n.ID.Key)
}

// testName is the part of a test node's ref after the path: its symbol, or
// its line range.
func testName(n synth.Node) string {
	if n.Symbol != "" {
		return n.Symbol
	}
	return strings.TrimPrefix(n.Ref(), n.Path)
}

// NodeURL is the URL function: the URL of a node's page relative to the
// site root, its folder's index.html, or for a symbol its file's page and
// anchor. [Renderer.relURL] and [Renderer.absURL] are its forms for a node
// known by id, relative and under the base URL.
func NodeURL(n synth.Node) string {
	if d := nodeDir(n); d != "" {
		return pageURL(d)
	}
	return pageURL(codeDir+"/"+pathSegments(n.Path)) + "#" + symbolAnchor(n)
}

// idURL is [NodeURL] of a node that its id names alone: a requirement,
// decision, page, run, document or file, whether or not the graph holds it
// (a file page is made for every file with a symbol on it). A symbol or
// test needs its node: idURL panics for one.
func idURL(id synth.NodeID) string {
	n := synth.Node{ID: id, Type: id.Type}
	if k := synth.KindOf(id.Type); k.Named {
		panic("idURL of a code node " + id.String())
	} else if k.Code {
		n.Path = id.Key // a file
	}
	return NodeURL(n)
}

// indexURL is the URL of a page that is no node's, in folder dir (one of
// the *Dir constants, or a filterDir), relative to the site root.
func indexURL(dir string) string { return pageURL(dir) }

// documentItemURL is the URL of requirement id on the page of its
// document in folder: the page and the item's anchor.
func documentItemURL(folder, id string) string {
	return idURL(claims.DocumentNode(folder)) + "#req-" + segment(id)
}

// reqAnchor is the HTML id of a requirement on its document's page and
// in the HTML export.
func reqAnchor(id string) string { return "req-" + segment(id) }

// docAnchor is the HTML id of a requirement document in the HTML export.
func docAnchor(folder string) string { return "doc-" + segment(folder) }

// pageURL is the URL of the page in folder dir, relative to the site root.
// It names index.html: opened from the file system, a link to a folder
// shows the folder, not its page.
func pageURL(dir string) string {
	if dir == "" {
		return "index.html"
	}
	return dir + "/index.html"
}

// symbolAnchor is the HTML id of a symbol on its file's page.
func symbolAnchor(n synth.Node) string {
	if n.Symbol != "" {
		return "sym-" + segment(n.Symbol)
	}
	return "range-" + segment(strings.TrimPrefix(n.Ref(), n.Path+"#"))
}

// folderAnchor is the HTML id of a code folder's section on the coverage
// page.
func folderAnchor(folder string) string { return "folder-" + segment(folder) }

// rel returns the relative prefix from a page folder to the site root:
// "" for the root, "../../" for "requirements/REQ-1".
func rel(dir string) string {
	if dir == "" {
		return ""
	}
	return strings.Repeat("../", strings.Count(dir, "/")+1)
}

// pathSegments escapes each segment of a slash-separated path.
func pathSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = segment(s)
	}
	return strings.Join(parts, "/")
}

// segment makes s safe as one folder name and one URL path segment alike:
// letters, digits, '-', '_', '.' and '@' stay; every other byte becomes
// '~' and two hex digits ('~' itself included), so distinct names stay
// distinct. "." and ".." are escaped too, and so are the names the site
// gives its own files, index.html and index.json (in any case). A result
// longer than [MaxSegment] bytes keeps a readable prefix and ends in "~~"
// and a hash of s ("~~" is never an escape), so every valid name fits a
// file system's 255-byte limit.
func segment(s string) string {
	if s == "" {
		return "~"
	}
	if s == "." || s == ".." {
		return strings.Repeat("~2e", len(s))
	}
	if strings.EqualFold(s, "index.html") || strings.EqualFold(s, "index.json") {
		return s[:5] + "~2e" + s[6:]
	}
	seg := escapeSegment(s)
	if len(seg) <= MaxSegment {
		return seg
	}
	cut := MaxSegment - 2 - segmentHash
	if i := strings.LastIndexByte(seg[:cut], '~'); i >= cut-2 {
		cut = i // never cut an escape in two
	}
	sum := sha256.Sum256([]byte(s))
	return seg[:cut] + "~~" + hex.EncodeToString(sum[:])[:segmentHash]
}

// MaxSegment bounds the bytes of one output path segment.
const MaxSegment = 120

// segmentHash is the number of hex digits of the hash a long segment ends in.
const segmentHash = 16

// escapeSegment is segment's escaping, unbounded.
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '@':
			b.WriteByte(c)
		default:
			b.WriteByte('~')
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		}
	}
	return b.String()
}
