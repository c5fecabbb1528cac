package synth

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"maps"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Key is the hash of everything [Build] reads of in but its code index:
// two inputs with the same key and the same index draw the same graph. A
// session that builds again after an edit keeps its last graph with its
// key and its index, and draws again only when one of them changed: the
// text of a page, the places of its claims and every other part of a
// document that no node or edge shows leave the key as it was, so an
// edit of a page's prose costs no new graph. The index is left to the
// caller, who compares it by identity (an index is read-only once built,
// and a session builds a new one only when a code file changed); hashing
// every symbol and edge of it would cost what drawing them does.
//
// Whatever Build comes to read must be written here too: the session's
// tests compare an edited session's pages with a fresh build's.
func (in Input) Key() [sha256.Size]byte {
	k := newKeyWriter()
	k.str(in.ProjectID)
	k.str(in.Lang)
	k.model(in.Model)
	k.report(in.Report, in.Externals)
	return k.sum()
}

// keyWriter writes the parts of a key into a hash, each string with its
// length first, so no two lists of parts give the same bytes; it buffers
// them, since a key is made of a great many short parts.
type keyWriter struct {
	h   hash.Hash
	buf []byte
}

// keyBuffer is how many bytes a keyWriter gathers before it hashes them.
const keyBuffer = 32 << 10

func newKeyWriter() *keyWriter {
	return &keyWriter{h: sha256.New(), buf: make([]byte, 0, keyBuffer)}
}

func (k *keyWriter) flushIfFull() {
	if len(k.buf) >= keyBuffer-binary.MaxVarintLen64 {
		k.h.Write(k.buf)
		k.buf = k.buf[:0]
	}
}

func (k *keyWriter) int(n int) {
	k.flushIfFull()
	k.buf = binary.AppendVarint(k.buf, int64(n))
}

func (k *keyWriter) bool(b bool) {
	if b {
		k.int(1)
	} else {
		k.int(0)
	}
}

func (k *keyWriter) bytes(b []byte) {
	k.int(len(b))
	if len(b) > keyBuffer/2 {
		k.h.Write(k.buf)
		k.h.Write(b)
		k.buf = k.buf[:0]
		return
	}
	if len(k.buf)+len(b) > keyBuffer {
		k.h.Write(k.buf)
		k.buf = k.buf[:0]
	}
	k.buf = append(k.buf, b...)
}

func (k *keyWriter) str(s string) {
	k.int(len(s))
	if len(k.buf)+len(s) > keyBuffer {
		k.h.Write(k.buf)
		k.buf = k.buf[:0]
		if len(s) > keyBuffer {
			k.h.Write([]byte(s))
			return
		}
	}
	k.buf = append(k.buf, s...)
}

func (k *keyWriter) strs(ss []string) {
	k.int(len(ss))
	for _, s := range ss {
		k.str(s)
	}
}

func (k *keyWriter) node(id NodeID) {
	k.str(string(id.Type))
	k.str(id.Key)
}

func (k *keyWriter) target(t claims.Target) {
	k.str(t.External)
	k.str(t.Path)
	k.str(t.Symbol)
	k.int(t.Start)
	k.int(t.End)
}

func (k *keyWriter) verdict(v *codeanchors.Verdict) {
	k.str(string(v.State))
	k.str(string(v.Reason))
	k.bool(v.Moved)
	k.bool(v.Reformatted)
	k.int(v.Start)
	k.int(v.End)
	k.str(v.Note)
	k.bool(v.NeverExisted)
	k.str(v.SupersededBy)
}

// links writes what the graph reads of a document's links: whom they
// point at, not where they are written.
func (k *keyWriter) links(d *claims.Doc) {
	k.int(len(d.Links))
	for _, l := range d.Links {
		k.str(string(l.Kind))
		k.str(l.To)
	}
}

func (k *keyWriter) ids(refs []claims.IDRef) {
	k.int(len(refs))
	for _, r := range refs {
		k.str(r.ID)
	}
}

// model writes what Build reads of the model: the nodes' fields, the
// requirements' structure and targets' paths, the documents' links, and
// the decisions' text (their mentions); never a claim or a place.
func (k *keyWriter) model(m *claims.Model) {
	k.int(len(m.Requirements))
	for _, r := range m.Requirements {
		k.str(r.ID)
		k.str(r.Title)
		k.str(r.Status)
		k.str(r.Revision)
		k.str(r.Document)
		k.str(r.Level)
		k.strs(r.Tags)
		k.int(len(r.Fields))
		for _, name := range slices.Sorted(maps.Keys(r.Fields)) {
			k.str(name)
			k.str(r.Fields[name])
		}
		k.bool(r.Normative)
		k.bool(r.Derived)
		k.ids(r.Issues)
		k.ids(r.Parents)
		for _, refs := range [][]claims.TargetRef{r.Implements, r.Tests} {
			k.int(len(refs))
			for _, t := range refs {
				k.str(t.Target.Path)
			}
		}
		k.links(&r.Doc)
	}
	k.int(len(m.Documents))
	for _, d := range m.Documents {
		k.str(d.Path)
		k.str(d.Title)
		k.str(d.Doc.File)
	}
	k.int(len(m.Decisions))
	for _, d := range m.Decisions {
		k.str(d.ID)
		k.str(d.Title)
		k.str(d.Status)
		k.ids(d.Supersedes)
		k.links(&d.Doc)
		k.bytes(d.Doc.Body)
	}
	k.int(len(m.Pages))
	for _, p := range m.Pages {
		k.str(p.Path)
		k.str(p.Title)
		k.str(p.Type)
		k.str(p.Doc.File)
		k.links(&p.Doc)
	}
}

// report writes what Build reads of the judged links: every verdict, the
// targets' uses (a use's place only when a code marker declares it), and
// the external requirements that parent links name.
func (k *keyWriter) report(r *codeanchors.Report, x codeanchors.Externals) {
	k.bool(r != nil)
	if r == nil {
		return
	}
	k.int(len(r.Requirements))
	for _, s := range r.Requirements {
		k.str(s.ID)
		k.bool(s.Implemented)
		k.bool(s.Tested)
		k.bool(s.Verified)
	}
	k.int(len(r.Parents))
	for i := range r.Parents {
		ps := &r.Parents[i]
		k.str(ps.Child)
		k.str(ps.Parent)
		k.verdict(&ps.Verdict)
		if _, _, ok := claims.CutExternal(ps.Parent); ok {
			er, found := x.Requirement(ps.Parent)
			k.bool(found)
			k.str(er.Title)
			k.str(er.Revision)
			k.bool(er.Implemented)
			k.bool(er.Tested)
			k.bool(er.Verified)
			k.bool(er.Stale)
		}
	}
	k.int(len(r.Targets))
	for i := range r.Targets {
		ts := &r.Targets[i]
		k.target(ts.Target)
		k.verdict(&ts.Verdict)
		k.int(len(ts.Uses))
		for _, u := range ts.Uses {
			k.node(u.Node)
			k.str(u.Role)
			k.bool(u.Marker)
			if u.Marker {
				k.str(u.Pos.String())
			}
		}
	}
	k.int(len(r.Evidence))
	for i := range r.Evidence {
		es := &r.Evidence[i]
		k.str(es.Evidence.Req)
		k.str(es.Evidence.Run)
		k.bool(es.Evidence.Passed())
		k.verdict(&es.Verdict)
	}
}

func (k *keyWriter) sum() [sha256.Size]byte {
	k.h.Write(k.buf)
	return [sha256.Size]byte(k.h.Sum(nil))
}
