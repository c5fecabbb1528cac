package synth

import (
	"github.com/tracewiki/tracewiki/claims"

	"path"
	"slices"
	"strings"
)

// Bounds of a neighborhood.
const (
	MinDepth     = 1
	MaxDepth     = 3
	DefaultDepth = 1
	MaxNodes     = 400
	MaxEdges     = 800
)

// NeighborhoodSchemaVersion versions the neighborhood JSON.
const NeighborhoodSchemaVersion = 1

// Query asks for the neighborhood of a path, a requirement and/or a decision.
type Query struct {
	Path     string // a workspace file
	ReqKey   string // a requirement id
	IssueKey string // a decision id
	Depth    int    // clamped to 1..3; 0 means 1
}

// NeighborhoodJSON is the document a neighborhood query answers: the
// neighborhood object of SPEC 3, exactly, beside the schema version every
// tracewiki artifact carries.
type NeighborhoodJSON struct {
	SchemaVersion int          `json:"schemaVersion"`
	Neighborhood  Neighborhood `json:"neighborhood"`
}

// Neighborhood is the part of the graph around the requested keys.
type Neighborhood struct {
	ProjectID string  `json:"project_id"`
	Path      *string `json:"path"`
	ReqKey    *string `json:"req_key"`
	IssueKey  *string `json:"issue_key"`
	Depth     int     `json:"depth"`
	Nodes     []Node  `json:"nodes"`
	Edges     []Edge  `json:"edges"`
	// Unknown lists the requested keys that do not exist; none of them adds
	// a node.
	Unknown []string `json:"unknown"`
	// StaleRefs are the ids of the stale nodes, once each, in node order.
	StaleRefs []string `json:"stale_refs"`
	// Truncated is true when MaxNodes or MaxEdges cut the answer.
	Truncated bool `json:"truncated"`
}

// Neighborhood answers q breadth-first from its starting points: the
// file's own node, its symbols and the requirements whose implements or
// tests targets are in it (Path); the requirement (ReqKey); the decision
// (IssueKey). Each node is recorded once, at the distance it was first
// reached; an edge is included when it was followed from a node closer
// than Depth. The work is bounded by what is returned and its frontier.
func (g *Graph) Neighborhood(q Query) NeighborhoodJSON {
	nb := Neighborhood{
		ProjectID: g.ProjectID, Depth: clampDepth(q.Depth),
		Nodes: []Node{}, Edges: []Edge{}, Unknown: []string{}, StaleRefs: []string{},
	}
	var starts []int32
	if q.Path != "" {
		p := strings.TrimPrefix(path.Clean(q.Path), "./")
		nb.Path = &p
		if ns, ok := g.byPath[p]; ok {
			starts = append(starts, ns...)
		} else {
			nb.Unknown = append(nb.Unknown, q.Path)
		}
	}
	for _, k := range []struct {
		key   string
		typ   claims.NodeType
		field **string
	}{{q.ReqKey, claims.NodeRequirement, &nb.ReqKey}, {q.IssueKey, claims.NodeDecision, &nb.IssueKey}} {
		if k.key == "" {
			continue
		}
		key := k.key
		*k.field = &key
		if i, ok := g.ids[NodeID{Type: k.typ, Key: key}]; ok {
			starts = append(starts, i)
		} else {
			nb.Unknown = append(nb.Unknown, key)
		}
	}

	g.walk(starts, &nb)
	return NeighborhoodJSON{SchemaVersion: NeighborhoodSchemaVersion, Neighborhood: nb}
}

func clampDepth(d int) int {
	return min(max(d, MinDepth), MaxDepth)
}

// NeighborhoodOf is the neighborhood of the given nodes, with no query
// keys: the twin of a node's page.
func (g *Graph) NeighborhoodOf(ids []NodeID, depth int) Neighborhood {
	nb := Neighborhood{
		ProjectID: g.ProjectID, Depth: clampDepth(depth),
		Nodes: []Node{}, Edges: []Edge{}, Unknown: []string{}, StaleRefs: []string{},
	}
	var starts []int32
	for _, id := range ids {
		if i, ok := g.ids[id]; ok {
			starts = append(starts, i)
		}
	}
	g.walk(starts, &nb)
	return nb
}

// walk fills nb breadth-first from starts to nb.Depth hops.
func (g *Graph) walk(starts []int32, nb *Neighborhood) {
	dist := map[int32]int{}
	var order []int32 // nodes in the order reached
	for _, s := range starts {
		if _, seen := dist[s]; !seen {
			dist[s] = 0
			order = append(order, s)
		}
	}
	if len(order) > MaxNodes {
		order, nb.Truncated = order[:MaxNodes], true
	}
	included := map[int32]bool{}
	var edges []int32
	for head := 0; head < len(order); head++ {
		u := order[head]
		if dist[u] >= nb.Depth {
			continue
		}
		for _, e := range g.adj[u] {
			v := g.other(u, e)
			if _, seen := dist[v]; !seen {
				if len(order) >= MaxNodes {
					nb.Truncated = true
					continue
				}
				dist[v] = dist[u] + 1
				order = append(order, v)
			}
			if !included[e] {
				if len(edges) >= MaxEdges {
					nb.Truncated = true
					continue
				}
				included[e] = true
				edges = append(edges, e)
			}
		}
	}

	// Node and edge indices are already in the SPEC 3 order; sort the
	// indices and copy.
	slices.Sort(order)
	slices.Sort(edges)
	nb.Nodes = slices.Grow(nb.Nodes, len(order))
	nb.Edges = slices.Grow(nb.Edges, len(edges))
	for _, i := range order {
		n := g.Nodes[i]
		nb.Nodes = append(nb.Nodes, n)
		if n.Stale {
			nb.StaleRefs = append(nb.StaleRefs, n.ID.String())
		}
	}
	for _, e := range edges {
		nb.Edges = append(nb.Edges, g.Edges[e])
	}
}
