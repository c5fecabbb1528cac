package site

import (
	"bytes"
	"slices"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// markerState is what the code's markers added to a project (SPEC 1.6):
// read once per project, before its links are collected.
type markerState struct {
	read bool
	// unknown are the marker links naming requirements that do not exist.
	unknown []codeanchors.MarkerLink
	// parsed holds the code files parsed to read their markers, for
	// [Project.Sources] to hand out again instead of parsing them twice.
	parsed map[string]*codeanchors.Source
}

// markerHints are the texts a comment with a marker of a format holds:
// a file without any is not parsed for markers.
var markerHints = map[string][]string{
	codeanchors.FormatTracewiki:     {"@implements", "@tests"},
	codeanchors.FormatStrictDoc:     {"@relation("},
	codeanchors.FormatOpenFastTrace: {"->"},
	codeanchors.FormatLobster:       {"lobster-trace:"},
}

// mayHoldMarkers reports whether data holds the text of a marker of one
// of formats: a file that does not cannot hold a marker.
func mayHoldMarkers(data []byte, formats []string) bool {
	for _, f := range formats {
		for _, h := range markerHints[f] {
			if bytes.Contains(data, []byte(h)) {
				return true
			}
		}
	}
	return false
}

// addMarkers reads the markers of the code files in sources (each parsed
// once, by the load that read them) and adds their links to the model
// ([codeanchors.WithMarkers]). It runs once per project.
func (p *Project) addMarkers(code []string, sources map[string]*codeanchors.Source) {
	if p.markers.read {
		return
	}
	p.markers.read = true
	formats := p.Config.Markers.Formats
	if len(formats) == 0 {
		return
	}
	var links []codeanchors.MarkerLink
	for _, name := range code {
		if s := sources[name]; s != nil && !s.NotIncluded {
			links = append(links, codeanchors.FindMarkers(s, formats)...)
		}
	}
	p.Model, p.markers.unknown = codeanchors.WithMarkers(p.Model, links)
}

// readMarkers is [Project.addMarkers] for a command that does not read
// every code file (check, capture, evidence): it reads them, and parses
// only those that may hold a marker, keeping the parses for
// [Project.Sources].
func (p *Project) readMarkers() error {
	formats := p.Config.Markers.Formats
	if p.markers.read || len(formats) == 0 {
		p.markers.read = true
		return nil
	}
	code, _, err := p.CodeFiles()
	if err != nil {
		return err
	}
	parsed := make([]*codeanchors.Source, len(code))
	err = p.parallel(len(code), func(i int) error {
		data, err := p.WS.ReadFile(code[i])
		if err != nil || !mayHoldMarkers(data, formats) {
			return nil // a file that vanished or cannot be read holds no marker
		}
		parsed[i] = p.parseSource(code[i], data)
		return nil
	})
	if err != nil {
		return err
	}
	sources := map[string]*codeanchors.Source{}
	for i, s := range parsed {
		if s != nil {
			sources[code[i]] = s
		}
	}
	p.markers.parsed = sources
	p.addMarkers(slices.Sorted(func(yield func(string) bool) {
		for name := range sources {
			if !yield(name) {
				return
			}
		}
	}), sources)
	return nil
}
