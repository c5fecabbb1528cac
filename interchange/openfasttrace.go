package interchange

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// OpenFastTrace's Markdown importer (MarkdownImporter, MdPattern and
// LineParserStateMachine of itsallcode/openfasttrace 4.5.0) is a line state
// machine: each line is matched, in table order, against the patterns of
// the transitions leaving the current state; the first that matches the
// whole line runs its action and moves to its state, and a line nothing
// matches is skipped. The patterns and the table below are that
// importer's, so that what is an item, its title, description, rationale,
// comment and lists is what OpenFastTrace itself reads, quirks included: a
// Status: line counts only before the description, a bullet of a Covers:
// list counts only when it holds an id, and text after a list that no
// transition takes is dropped.
const (
	oftType = `[a-zA-Z]+`
	// oftName is ITEM_NAME_PATTERN, whose (?U) makes \w and \p{Alpha}
	// Unicode classes.
	oftName = `\pL[\pL\pM\p{Nd}\p{Pc}-]*(?:\.[\pL\pM\p{Nd}\p{Pc}-]+)*`
	oftID   = oftType + `~` + oftName + `~[0-9]+`
	// oftRef is REFERENCE_AFTER_BULLET: a bullet line holding an id.
	oftRef = `\s{0,3}[+*-](?:.*\W)?(` + oftID + `)(?:\W.*)?`
)

// oftState is a state of the line parser.
type oftState int

const (
	oftStart oftState = iota
	oftTitle
	oftSpecItem
	oftDescription
	oftRationale
	oftComment
	oftCovers
	oftDepends
	oftNeedsList
	oftTags
	oftCodeBlock
)

// oftPattern matches a line (and may look at the next one, for underlined
// titles); token is its first group, or "" when it has none.
type oftPattern func(line, next string) (token string, ok bool)

// oftRegexp is a pattern that must match the whole line, as Java's
// Matcher.matches() does.
func oftRegexp(expr string) oftPattern {
	re := regexp.MustCompile(`^(?:` + expr + `)$`)
	return func(line, _ string) (string, bool) {
		m := re.FindStringSubmatch(line)
		if m == nil {
			return "", false
		}
		if len(m) > 1 {
			return m[1], true
		}
		return "", true
	}
}

// The patterns of MdPattern, by the same names.
var (
	oftCodeBegin   = oftRegexp(" *[`~]{3,30}\\w*\\s*")
	oftCodeEnd     = oftRegexp(" *[`~]{3,30}\\s*")
	oftCommentP    = oftRegexp(`Comment:\s*`)
	oftCoversP     = oftRegexp(`Covers:\s*`)
	oftCoversRef   = oftRegexp(oftRef)
	oftDependsP    = oftRegexp(`Depends:\s*`)
	oftDependsRef  = oftRegexp(oftRef)
	oftDescP       = oftRegexp(`Description:\s*`)
	oftEmpty       = oftRegexp(`(\s*)`)
	oftEverything  = oftRegexp(`(.*)`)
	oftForward     = oftRegexp(`.*?(` + oftType + `\s*-->\s*` + oftType + `(?:,\s*` + oftType + `)*\s*:\s*` + oftID + `).*?`)
	oftIDP         = oftRegexp("`?(" + oftID + ")`?.*")
	oftNeedsInt    = oftRegexp(`Needs:(\s*\w+\s*(?:,\s*\w+\s*)*)`)
	oftNeedsP      = oftRegexp(`Needs:\s*`)
	oftNeedsRef    = oftRegexp(`\s{0,3}[+*-](?:.*\W)?([a-zA-Z]+)(?:\W.*)?`)
	oftNotEmpty    = oftRegexp(`([^\n\r]+)`)
	oftRationaleP  = oftRegexp(`Rationale:\s*`)
	oftStatusP     = oftRegexp(`Status:\s*(approved|proposed|draft|rejected)\s*`)
	oftTagsInt     = oftRegexp(`Tags:(\s*\w+\s*(?:,\s*\w+\s*)*)`)
	oftTagsP       = oftRegexp(`Tags:\s*`)
	oftTagEntry    = oftRegexp(`\s{0,3}[+*-]\s*(.*)`)
	oftHashTitle   = oftRegexp(`#+\s*(.*)`)
	oftUnderline   = oftRegexp(`([=-]{3,})\s*`)
	oftParserOff   = regexp.MustCompile(`(?:^|[^\pL\pN_])oft:off(?:[^\pL\pN_]|$)`)
	oftParserOn    = regexp.MustCompile(`(?:^|[^\pL\pN_])oft:on(?:[^\pL\pN_]|$)`)
	oftSectionHead = func(line, next string) (string, bool) {
		if t, ok := oftHashTitle(line, ""); ok {
			return t, true
		}
		if _, ok := oftUnderline(next, ""); ok {
			return line, true
		}
		return "", false
	}
)

// oftTransition is one row of the importer's transition table.
type oftTransition struct {
	from, to oftState
	match    oftPattern
	action   func(p *oftParser, token string)
}

// oftTable returns MarkdownImporter.configureTransitions, row for row.
func oftTable() []oftTransition {
	type P = oftParser
	none := func(*P, string) {}
	endTitle := func(p *P, t string) { p.endItem(); p.rememberTitle(t) }
	endForward := func(p *P, t string) { p.endItem(); p.forward(t) }
	return []oftTransition{
		{oftStart, oftSpecItem, oftIDP, (*P).beginItem},
		{oftStart, oftTitle, oftSectionHead, (*P).rememberTitle},
		{oftStart, oftStart, oftForward, (*P).forward},
		{oftStart, oftCodeBlock, oftCodeBegin, none},
		{oftStart, oftStart, oftEverything, none},

		{oftTitle, oftSpecItem, oftIDP, (*P).beginItem},
		{oftTitle, oftTitle, oftSectionHead, (*P).rememberTitle},
		{oftTitle, oftTitle, oftUnderline, none},
		{oftTitle, oftTitle, oftEmpty, none},
		{oftTitle, oftStart, oftForward, func(p *P, t string) { p.forward(t); p.title = nil }},
		{oftTitle, oftStart, oftEverything, func(p *P, _ string) { p.title = nil }},

		{oftSpecItem, oftSpecItem, oftIDP, (*P).beginItem},
		{oftSpecItem, oftSpecItem, oftStatusP, (*P).setStatus},
		{oftSpecItem, oftTitle, oftSectionHead, endTitle},
		{oftSpecItem, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftSpecItem, oftComment, oftCommentP, (*P).beginComment},
		{oftSpecItem, oftCovers, oftCoversP, none},
		{oftSpecItem, oftDepends, oftDependsP, none},
		{oftSpecItem, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftSpecItem, oftNeedsList, oftNeedsP, none},
		{oftSpecItem, oftTags, oftTagsInt, (*P).addTags},
		{oftSpecItem, oftTags, oftTagsP, none},
		{oftSpecItem, oftDescription, oftDescP, (*P).beginDescription},
		{oftSpecItem, oftStart, oftForward, endForward},
		{oftSpecItem, oftDescription, oftNotEmpty, (*P).beginDescription},

		{oftDescription, oftSpecItem, oftIDP, (*P).beginItem},
		{oftDescription, oftTitle, oftSectionHead, endTitle},
		{oftDescription, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftDescription, oftComment, oftCommentP, (*P).beginComment},
		{oftDescription, oftCovers, oftCoversP, none},
		{oftDescription, oftDepends, oftDependsP, none},
		{oftDescription, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftDescription, oftNeedsList, oftNeedsP, none},
		{oftDescription, oftTags, oftTagsInt, (*P).addTags},
		{oftDescription, oftTags, oftTagsP, none},
		{oftDescription, oftStart, oftForward, endForward},
		{oftDescription, oftDescription, oftEverything, (*P).appendDescription},

		{oftRationale, oftSpecItem, oftIDP, (*P).beginItem},
		{oftRationale, oftTitle, oftSectionHead, endTitle},
		{oftRationale, oftComment, oftCommentP, (*P).beginComment},
		{oftRationale, oftCovers, oftCoversP, none},
		{oftRationale, oftDepends, oftDependsP, none},
		{oftRationale, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftRationale, oftNeedsList, oftNeedsP, none},
		{oftRationale, oftTags, oftTagsInt, (*P).addTags},
		{oftRationale, oftTags, oftTagsP, none},
		{oftRationale, oftRationale, oftEverything, (*P).appendRationale},

		{oftComment, oftSpecItem, oftIDP, (*P).beginItem},
		{oftComment, oftTitle, oftSectionHead, endTitle},
		{oftComment, oftCovers, oftCoversP, none},
		{oftComment, oftDepends, oftDependsP, none},
		{oftComment, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftComment, oftNeedsList, oftNeedsP, none},
		{oftComment, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftComment, oftTags, oftTagsInt, (*P).addTags},
		{oftComment, oftTags, oftTagsP, none},
		{oftComment, oftComment, oftEverything, (*P).appendComment},

		{oftCovers, oftSpecItem, oftIDP, (*P).beginItem},
		{oftCovers, oftTitle, oftSectionHead, endTitle},
		{oftCovers, oftCovers, oftCoversRef, (*P).addCovers},
		{oftCovers, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftCovers, oftComment, oftCommentP, (*P).beginComment},
		{oftCovers, oftDepends, oftDependsP, none},
		{oftCovers, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftCovers, oftNeedsList, oftNeedsP, none},
		{oftCovers, oftCovers, oftEmpty, none},
		{oftCovers, oftTags, oftTagsInt, (*P).addTags},
		{oftCovers, oftTags, oftTagsP, none},
		{oftCovers, oftStart, oftForward, endForward},

		{oftDepends, oftSpecItem, oftIDP, (*P).beginItem},
		{oftDepends, oftTitle, oftSectionHead, endTitle},
		{oftDepends, oftDepends, oftDependsRef, (*P).addDepends},
		{oftDepends, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftDepends, oftComment, oftCommentP, (*P).beginComment},
		{oftDepends, oftDepends, oftDependsP, none},
		{oftDepends, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftDepends, oftNeedsList, oftNeedsP, none},
		{oftDepends, oftDepends, oftEmpty, none},
		{oftDepends, oftCovers, oftCoversP, none},
		{oftDepends, oftTags, oftTagsInt, (*P).addTags},
		{oftDepends, oftTags, oftTagsP, none},
		{oftDepends, oftStart, oftForward, endForward},

		{oftNeedsList, oftSpecItem, oftIDP, (*P).beginItem},
		{oftNeedsList, oftTitle, oftSectionHead, endTitle},
		{oftNeedsList, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftNeedsList, oftComment, oftCommentP, (*P).beginComment},
		{oftNeedsList, oftDepends, oftDependsP, none},
		{oftNeedsList, oftNeedsList, oftNeedsRef, (*P).addNeeds},
		{oftNeedsList, oftDescription, oftEmpty, none},
		{oftNeedsList, oftCovers, oftCoversP, none},
		{oftNeedsList, oftTags, oftTagsInt, (*P).addTags},
		{oftNeedsList, oftTags, oftTagsP, none},
		{oftNeedsList, oftStart, oftForward, endForward},

		{oftTags, oftTags, oftTagEntry, (*P).addTags},
		{oftTags, oftSpecItem, oftIDP, (*P).beginItem},
		{oftTags, oftTitle, oftSectionHead, endTitle},
		{oftTags, oftRationale, oftRationaleP, (*P).beginRationale},
		{oftTags, oftComment, oftCommentP, (*P).beginComment},
		{oftTags, oftDepends, oftDependsP, none},
		{oftTags, oftSpecItem, oftNeedsInt, (*P).addNeeds},
		{oftTags, oftNeedsList, oftNeedsP, none},
		{oftTags, oftSpecItem, oftEmpty, none},
		{oftTags, oftCovers, oftCoversP, none},
		{oftTags, oftTags, oftTagsP, none},
		{oftTags, oftTags, oftTagsInt, (*P).addTags},
		{oftTags, oftStart, oftForward, endForward},

		{oftCodeBlock, oftStart, oftCodeEnd, none},
	}
}

// oftTransitions is the table, built once.
var oftTransitions = oftTable()

// oftItem is a specification item as the line parser reads it.
type oftItem struct {
	id, title string
	line      int
	status    string
	desc      []string
	rationale []string
	comment   []string
	covers    []string
	depends   []string
	needs     []string
	tags      []string
	forwards  bool
}

// oftParser is the state of reading one file.
type oftParser struct {
	state    oftState
	title    *string // the last section title, until an item takes it or a line drops it
	docTitle string  // the first section title of the file
	cur      *oftItem
	items    []oftItem
	line     int
}

// parseOFT reads the specification items of one Markdown file.
func parseOFT(data []byte) (items []oftItem, docTitle string) {
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	p := &oftParser{}
	enabled := true
	for i, line := range lines {
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		p.line = i + 1
		switch {
		case !enabled:
			enabled = oftParserOn.MatchString(line)
		case oftParserOff.MatchString(line):
			enabled = false
		default:
			p.step(line, next)
		}
	}
	if p.cur != nil {
		p.endItem()
	}
	return p.items, p.docTitle
}

// step runs the first transition from the current state whose pattern
// matches the line; a line none matches is skipped.
func (p *oftParser) step(line, next string) {
	for _, t := range oftTransitions {
		if t.from != p.state {
			continue
		}
		if token, ok := t.match(line, next); ok {
			t.action(p, token)
			p.state = t.to
			return
		}
	}
}

func (p *oftParser) beginItem(id string) {
	if p.cur != nil {
		p.endItem()
	}
	p.cur = &oftItem{id: id, line: p.line}
	if p.title != nil {
		p.cur.title = *p.title
	}
}

func (p *oftParser) endItem() {
	p.title = nil
	if p.cur != nil {
		p.items = append(p.items, *p.cur)
		p.cur = nil
	}
}

func (p *oftParser) rememberTitle(t string) {
	if p.docTitle == "" {
		p.docTitle = strings.TrimSpace(t)
	}
	p.title = &t
}

func (p *oftParser) setStatus(s string) { p.cur.status = s }

func (p *oftParser) beginDescription(t string) { p.cur.desc = append(p.cur.desc, t) }

func (p *oftParser) appendDescription(t string) { p.cur.desc = append(p.cur.desc, t) }

func (p *oftParser) beginRationale(string) {}

func (p *oftParser) appendRationale(t string) { p.cur.rationale = append(p.cur.rationale, t) }

func (p *oftParser) beginComment(string) {}

func (p *oftParser) appendComment(t string) { p.cur.comment = append(p.cur.comment, t) }

func (p *oftParser) addCovers(id string) { p.cur.covers = append(p.cur.covers, id) }

func (p *oftParser) addDepends(id string) { p.cur.depends = append(p.cur.depends, id) }

func (p *oftParser) addNeeds(list string) { p.cur.needs = appendList(p.cur.needs, list) }

func (p *oftParser) addTags(list string) { p.cur.tags = appendList(p.cur.tags, list) }

// appendList adds the comma-separated entries of list, trimmed, once each.
func appendList(to []string, list string) []string {
	for e := range strings.SplitSeq(list, ",") {
		if e = strings.TrimSpace(e); e != "" && !slices.Contains(to, e) {
			to = append(to, e)
		}
	}
	return to
}

// forward reads "arch --> dsn, itest : req~name~1": an item of the
// skipped type (arch~name~1) that covers the original and needs the
// target types, so the original's coverage passes through it.
func (p *oftParser) forward(token string) {
	arrow, orig, _ := strings.Cut(token, ":")
	skipped, targets, _ := strings.Cut(arrow, "-->")
	orig = strings.TrimSpace(orig)
	_, rest, _ := strings.Cut(orig, "~")
	p.items = append(p.items, oftItem{id: strings.TrimSpace(skipped) + "~" + rest, line: p.line,
		covers: []string{orig}, needs: appendList(nil, targets), forwards: true})
}

// oftStatus maps OpenFastTrace's item status onto tracewiki's: approved
// is accepted; draft and proposed are proposed (tracewiki has no draft:
// both mean "not agreed yet"); rejected stays rejected. An item without a
// Status: line is approved to OpenFastTrace, but the import writes no
// status the source did not write.
func oftStatus(s string) string {
	switch s {
	case "approved":
		return "accepted"
	case "draft", "proposed":
		return "proposed"
	case "rejected":
		return "rejected"
	}
	return ""
}

// oftMarkdown reports whether OpenFastTrace's Markdown importer reads a
// file (MarkdownImporterFactory: .md and .markdown).
func oftMarkdown(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		return true
	}
	return false
}

// ImportOpenFastTrace reads OpenFastTrace Markdown specification items.
// Each Markdown file with an item is a document, in a folder named by the
// slug of its path without the extension (design/quality.md →
// design-quality: unique within the import and stable when headings
// change), titled by its HTML <title> if it has one, else its first
// section title, else its file name. Only items are imported: the text
// between them (introductions, sections without an id) is not. An item keeps its id
// (type~name~revision); its title is the section title right above the id;
// its body is the description, then "Rationale:" and "Comment:" with their
// text, as OpenFastTrace writes them; fields.type is its artifact type,
// fields.needs the artifact types of Needs: ("impl, utest"), and
// fields.depends the ids of Depends: (a dependency is not coverage in
// OpenFastTrace, so it is no parent link); Covers: ids are parent links,
// when the covered item is among the imported items; Status: maps through
// [oftStatus]; Tags: are tags. Its level is its position in the file. A
// forward (arch --> dsn : req~x~1) is an item arch~x~1 with
// fields.forwards = "true". Covered items that are not in the import (OFT's
// "orphaned", or another revision: "outdated"/"predated"), Markdown files
// with no item and other files are reported.
func ImportOpenFastTrace(files []File) *Result {
	r := &Result{Format: "openfasttrace"}
	type read struct {
		file  string
		items []oftItem
	}
	var all []read // the files with items, in order
	for _, f := range files {
		if !oftMarkdown(f.Name) {
			r.unmapped(f.Name, "file", "not a Markdown file (.md, .markdown): OpenFastTrace's Markdown importer does not read it")
			continue
		}
		items, title := parseOFT(f.Data)
		if len(items) == 0 {
			r.unmapped(f.Name, "file", "has no specification item (a line starting with a type~name~revision id)")
			continue
		}
		doc := Document{Path: Slug(strings.TrimSuffix(f.Name, path.Ext(f.Name))), Title: title, From: "openfasttrace:" + f.Name}
		if m := htmlTitle.FindSubmatch(f.Data); m != nil && strings.TrimSpace(string(m[1])) != "" {
			doc.Title = strings.TrimSpace(string(m[1]))
		}
		if doc.Title == "" {
			doc.Title = strings.TrimSuffix(path.Base(f.Name), path.Ext(f.Name))
		}
		r.Documents = append(r.Documents, doc)
		all = append(all, read{f.Name, items})
	}
	anchors := oftAnchors(files)
	for _, rd := range all {
		doc := r.Documents[slices.IndexFunc(r.Documents, func(d Document) bool { return d.From == "openfasttrace:"+rd.file })]
		for i, o := range rd.items {
			it := oftToItem(o, doc.Path, strconv.Itoa(i+1), rd.file)
			it.Text = r.oftLinks(it.Text, rd.file, it.From, anchors)
			r.images(&it, rd.file)
			r.Items = append(r.Items, it)
		}
	}
	r.oftCovers()
	r.finish()
	return r
}

// oftToItem turns a parsed item into an Item.
func oftToItem(o oftItem, doc, level, file string) Item {
	it := Item{ID: o.id, Title: strings.TrimSpace(o.title), Document: doc, Level: level, Status: oftStatus(o.status),
		Tags: o.tags, Normative: true, From: fmt.Sprintf("openfasttrace:%s:%d", file, o.line)}
	it.Text = strings.TrimSpace(strings.Join(o.desc, "\n"))
	for _, part := range []struct {
		name  string
		lines []string
	}{{"Rationale:", o.rationale}, {"Comment:", o.comment}} {
		if t := strings.TrimSpace(strings.Join(part.lines, "\n")); t != "" {
			it.Text = strings.TrimSpace(it.Text + "\n\n" + part.name + "\n\n" + t)
		}
	}
	typ, _, _ := strings.Cut(o.id, "~")
	it.setField("type", typ)
	if len(o.needs) > 0 {
		it.setField("needs", strings.Join(o.needs, ", "))
	}
	if len(o.depends) > 0 {
		it.setField("depends", strings.Join(o.depends, ", "))
	}
	if o.forwards {
		it.setField("forwards", "true")
	}
	for _, c := range o.covers {
		if !slices.ContainsFunc(it.Parents, func(p Parent) bool { return p.ID == c }) {
			it.Parents = append(it.Parents, Parent{ID: c})
		}
	}
	return it
}

// oftCovers drops the Covers links to items that are not imported,
// reporting each in OpenFastTrace's words: "outdated" or "predated" when
// another revision of the item is there, else "orphaned".
func (r *Result) oftCovers() {
	ids := map[string]bool{}
	revs := map[string][]string{} // type~name → the ids of its revisions
	for _, it := range r.Items {
		ids[it.ID] = true
		base := it.ID[:strings.LastIndex(it.ID, "~")]
		revs[base] = append(revs[base], it.ID)
	}
	for i := range r.Items {
		it := &r.Items[i]
		it.Parents = slices.DeleteFunc(it.Parents, func(p Parent) bool {
			if ids[p.ID] {
				return false
			}
			what := "covers " + p.ID
			others := revs[p.ID[:strings.LastIndex(p.ID, "~")]]
			if len(others) == 0 {
				r.unmapped(sourceOf(it.From), what, "no imported item has this id (OpenFastTrace: orphaned); no parent link")
				return true
			}
			word := "outdated"
			if oftRevision(p.ID) > oftRevision(others[0]) {
				word = "predated"
			}
			r.unmapped(sourceOf(it.From), what, "the import has %s instead (OpenFastTrace: %s); no parent link", strings.Join(others, ", "), word)
			return true
		})
	}
}

// oftRevision is the revision number of an id, 0 when it has none.
func oftRevision(id string) int {
	n, _ := strconv.Atoi(id[strings.LastIndex(id, "~")+1:])
	return n
}

// sourceOf is an item's file:line without the format prefix.
func sourceOf(from string) string {
	_, w, _ := strings.Cut(from, ":")
	return w
}

// htmlTitle finds the <title> of an HTML head, which OpenFastTrace's own
// specifications put before their first heading (that one is
// "Introduction").
var htmlTitle = regexp.MustCompile(`(?i)<title>([^<]*)</title>`)

// oftLink finds the inline links and images of Markdown text.
var oftLink = regexp.MustCompile(`(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// oftAnchors maps each Markdown file of the import to the anchors of its
// items' titles (as GitHub makes them) and the files ("document/id") they
// lead to, so that a link to a section of the specification can lead to
// the item's page. Items whose id tracewiki cannot take lead nowhere.
func oftAnchors(files []File) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, f := range files {
		if !oftMarkdown(f.Name) {
			continue
		}
		items, _ := parseOFT(f.Data)
		doc := Slug(strings.TrimSuffix(f.Name, path.Ext(f.Name)))
		m := map[string]string{}
		for _, o := range items {
			if a := githubAnchor(o.title); a != "" && m[a] == "" && validID(o.id) {
				m[a] = doc + "/" + o.id
			}
		}
		out[f.Name] = m
	}
	return out
}

// githubAnchor is the anchor GitHub gives a heading: lower case, every
// character but letters, digits, '-', '_' and spaces dropped, spaces made
// '-'.
func githubAnchor(title string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(title)) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c):
			b.WriteRune(c)
		}
	}
	return b.String()
}

// oftLinks rewrites the links of an item's text that lead into the
// specification: a link to a section (#anchor, or other.md#anchor for a
// file of the import) whose title is an item's leads to that item's page;
// any other link inside the import is cut to its text, and reported,
// since the item's page has no such heading or file. Web links, absolute
// paths and images are left alone.
func (r *Result) oftLinks(text, file, from string, anchors map[string]map[string]string) string {
	return oftLink.ReplaceAllStringFunc(text, func(link string) string {
		m := oftLink.FindStringSubmatch(link)
		dest := m[3]
		if m[1] == "!" || strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") {
			return link
		}
		target, anchor, _ := strings.Cut(dest, "#")
		if target == "" {
			target = file
		} else {
			target = path.Join(path.Dir(file), target)
		}
		if to, ok := anchors[target][anchor]; ok && anchor != "" {
			// The documents are sibling folders under requirements/.
			return "[" + m[2] + "](../" + to + ".md)"
		}
		r.unmapped(sourceOf(from), "link "+dest, "leads to no item of the import (only items are imported, not the sections between them); kept as text")
		return m[2]
	})
}
