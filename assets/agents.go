package assets

import _ "embed"

// AgentsGuide is what a coding agent should ask the wiki before editing
// code and record after: the section "tracewiki init --agents" writes into
// AGENTS.md, the instructions of the MCP server, and a section of
// docs/agents.md (a test keeps that copy equal). One text, so the three
// never disagree.
//
//go:embed agents.md
var AgentsGuide string
