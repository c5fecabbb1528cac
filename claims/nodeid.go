package claims

import (
	"cmp"
	"fmt"
	"strings"
)

// NodeType is the type of a node of the traceability graph (SPEC 3).
type NodeType string

// The node types, in the order neighborhoods list them.
const (
	NodeRequirement NodeType = "requirement"
	NodeDecision    NodeType = "decision"
	NodeSymbol      NodeType = "symbol"
	NodeTest        NodeType = "test"
	NodeRun         NodeType = "run"
	NodePage        NodeType = "page"
	NodeFile        NodeType = "file"
	NodeDocument    NodeType = "document"
)

// NodeTypes lists every node type in neighborhood order.
var NodeTypes = []NodeType{NodeRequirement, NodeDecision, NodeSymbol, NodeTest, NodeRun, NodePage, NodeFile, NodeDocument}

// Rank is the type's place in [NodeTypes]; -1 for an unknown type.
func (t NodeType) Rank() int {
	for i, u := range NodeTypes {
		if u == t {
			return i
		}
	}
	return -1
}

// NodeID identifies a node of the graph: its type and its key, written
// TYPE:KEY (SPEC 3): requirement:REQ-3, decision:FAU-9,
// symbol:src/auth.py@login, test:tests/test_auth.py@test_login, run:run_123,
// page:guides/login (the content path without .md), file:src/auth.py,
// document:system/brakes. A code node's key is its target in SPEC 1.3
// notation. [NodeID.String] and [ParseNodeID] are the one place the
// notation is written and read; they round-trip. The zero NodeID is no
// node, written "".
type NodeID struct {
	Type NodeType
	Key  string
}

// Constructors of the ids of nodes named by a model's ids and paths.
func RequirementNode(id string) NodeID { return NodeID{NodeRequirement, id} }
func DecisionNode(id string) NodeID    { return NodeID{NodeDecision, id} }
func PageNode(path string) NodeID      { return NodeID{NodePage, path} }
func FileNode(path string) NodeID      { return NodeID{NodeFile, path} }
func RunNode(id string) NodeID         { return NodeID{NodeRun, id} }

// DocumentNode is the id of the requirement document in folder (relative
// to requirements/): document:system/brakes.
func DocumentNode(folder string) NodeID { return NodeID{NodeDocument, folder} }

// String writes the id as TYPE:KEY; "" for the zero id.
func (id NodeID) String() string {
	if id.Type == "" {
		return ""
	}
	return string(id.Type) + ":" + id.Key
}

// IsZero reports whether id is the zero NodeID, which names no node.
func (id NodeID) IsZero() bool { return id == NodeID{} }

// ParseNodeID reads TYPE:KEY, where TYPE is one of [NodeTypes] and KEY is
// not empty. The key is everything after the first colon, so it may hold
// colons itself.
func ParseNodeID(s string) (NodeID, error) {
	typ, key, ok := strings.Cut(s, ":")
	if !ok || key == "" || NodeType(typ).Rank() < 0 {
		return NodeID{}, fmt.Errorf("node id %q: want TYPE:KEY with TYPE one of requirement, decision, symbol, test, run, page, file, document", s)
	}
	return NodeID{NodeType(typ), key}, nil
}

// MarshalText writes the id as [NodeID.String] does, so a NodeID is a
// string in JSON.
func (id NodeID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads an id written by MarshalText ("" is the zero id).
func (id *NodeID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = NodeID{}
		return nil
	}
	v, err := ParseNodeID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Compare orders ids as their strings sort: by type name, then key (no
// type name is a prefix of another, so the two orders agree).
func (id NodeID) Compare(o NodeID) int {
	return cmp.Or(cmp.Compare(id.Type, o.Type), cmp.Compare(id.Key, o.Key))
}
