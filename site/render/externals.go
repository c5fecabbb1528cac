package render

import (
	"strings"

	"github.com/tracewiki/tracewiki/synth"
)

// Cross-repository links (SPEC 1.8): an external's requirement or code
// has no page in this wiki. Wherever it shows, it keeps its external's
// name (its id and label do), and it links to its page in the external's
// published wiki when [[externals]] gives that wiki's url: the page the
// other repository's own build writes for it, under that url.

// externalURL is the absolute URL of an external's node in its
// repository's published wiki; "" when the node is this repository's,
// or its external has no url.
func (b *Renderer) externalURL(id synth.NodeID) string {
	name, local, ok := synth.ExternalLocal(id)
	if !ok || b.externals[name] == "" {
		return ""
	}
	return ExternalPageURL(b.externals[name], local)
}

// ExternalPageURL is the URL of node n, as its own repository names it,
// in that repository's wiki published at base.
func ExternalPageURL(base string, n synth.Node) string {
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + NodeURL(n)
}

// href is the link to node n from a page whose way to the site root is
// root: its page here, or an external's page in its own wiki ("" when
// that wiki's url is not given).
func (b *Renderer) href(root string, n synth.Node) string {
	if synth.IsExternal(n.ID) {
		return b.externalURL(n.ID)
	}
	return root + NodeURL(n)
}

// idHref is [Renderer.href] of the node with the id (root alone when
// the graph has no such node, as before externals).
func (b *Renderer) idHref(root string, id synth.NodeID) string {
	if synth.IsExternal(id) {
		return b.externalURL(id)
	}
	return root + b.relURL(id)
}
