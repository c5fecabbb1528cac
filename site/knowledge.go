package site

import (
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/synth"
)

// Knowledge analyzes the workspace (reading the lock, never writing it)
// and returns what search, lookup and the MCP server answer from.
func (p *Project) Knowledge() (*synth.Knowledge, error) {
	a, err := p.Analyze()
	if err != nil {
		return nil, err
	}
	g := p.draw(a)
	return synth.NewKnowledge(synth.KnowledgeInput{
		Graph: g, Model: p.Model, Report: a.Report, Sources: a.Sources, Lang: p.Config.Language,
		Search: synth.NewSearch(g, p.Model, func(id synth.NodeID) string {
			if n, ok := g.Node(id); ok {
				return render.NodeURL(n)
			}
			return ""
		}),
	}), nil
}
