package synth

import "github.com/tracewiki/tracewiki/claims"

// nid parses a node id written in a test.
func nid(s string) NodeID {
	id, err := claims.ParseNodeID(s)
	if err != nil {
		panic(err)
	}
	return id
}

// nids parses node ids written in a test.
func nids(ss ...string) []NodeID {
	var out []NodeID
	for _, s := range ss {
		out = append(out, nid(s))
	}
	return out
}
