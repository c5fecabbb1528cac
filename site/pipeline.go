package site

import (
	"bytes"
	"crypto/sha256"
	"io"
	"maps"
	"slices"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// A build is a pipeline of stages, each a function of the previous stage's
// value, and [Project.Build] returns every one of them in its [Site]:
//
//	load        [Project.load]          → [Loaded]: the code files listed, every code and referenced file read and parsed once
//	capture     [Project.capture]       → [Captured]: the lock to judge against, with new targets captured; nothing written
//	analyze     [Project.analyzeLoaded] → [Analysis]: drift judged once, the code index
//	synthesize  [Project.draw]          → the graph and the check report
//	render                              → the pages and JSON artifacts ([Site.Files] or [BuildOptions.Sink])
//
// Writing is the caller's: the output through [Project.BuildInto], the
// lock through [Project.WriteCapture]. check, serve and the MCP server run
// the same stages (serve and MCP without capture), so drift is judged once
// per run ([Project.judge]).
//
// With a build cache, `tracewiki build` may not run the stages at all: when
// nothing the last build read changed, or only the text of
// wiki pages did ([Build], [buildcache.UpToDate], [buildcache.BuildEdited]), the last build's records stand in for
// them.

// Loaded is the load stage's value: every code file and every referenced
// file read and parsed once; nothing judged yet.
type Loaded struct {
	// Code lists the files of the code index, sorted.
	Code []string
	// Sources holds the code files and every file a target names.
	Sources map[string]*codeanchors.Source
	// Skipped names the code files left out, and why (not regular files).
	Skipped []string
}

// load reads and parses the code files, the referenced files and the
// extra ones.
func (p *Project) load(extra ...string) (*Loaded, error) {
	code, skipped, err := p.CodeFiles()
	if err != nil {
		return nil, err
	}
	sources, err := p.Sources(slices.Concat(code, p.targetPaths(), extra))
	if err != nil {
		return nil, err
	}
	// A marker's target lies in the code file that holds it: among sources.
	p.addMarkers(code, sources)
	return &Loaded{Code: code, Sources: sources, Skipped: skipped}, nil
}

// Captured is the capture stage's value: the lock a build judges against.
type Captured struct {
	// Lock is the lock as read, plus the captures and stamps of Result.
	Lock *codeanchors.Lock
	// Result lists what was captured and stamped; nil for a frozen build,
	// which captures nothing.
	Result *CaptureResult
}

// capture reads the lock and, unless frozen, captures every referenced
// target never captured and stamps every parent link never stamped, into
// the lock value only: [Project.WriteCapture] writes them. A corrupt lock
// fails every build, frozen or not: a build that started a new lock would
// capture drifted code afresh and call it linked (SPEC 1.4); only capture
// and evidence keep a corrupt lock aside.
func (p *Project) capture(ld *Loaded, frozen bool, by string) (*Captured, error) {
	if frozen {
		l, err := p.frozenLock()
		if err != nil {
			return nil, err
		}
		return &Captured{Lock: l}, nil
	}
	l, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	by, at := p.captureStamp(by)
	res, err := p.captureInto(l, CaptureOptions{By: by}, nil, ld.Sources, at, by)
	if err != nil {
		return nil, err
	}
	return &Captured{Lock: l, Result: res}, nil
}

// lockMemo is a parsed lock with the bytes it was parsed from: a
// [Session]'s frozen builds, which only read the lock, parse it again
// only when its bytes change.
type lockMemo struct {
	data []byte
	lock *codeanchors.Lock
}

// frozenLock is [Project.ReadLock] for a frozen build, which never changes
// the lock: in a session, a lock whose bytes are those of the last call
// are not parsed again.
func (p *Project) frozenLock() (*codeanchors.Lock, error) {
	if p.memo == nil {
		return p.ReadLock()
	}
	m := &p.memo.locks
	data, err := p.WS.ReadFileLimit(p.Config.Lock, codeanchors.MaxLockBytes)
	if err == nil && m.lock != nil && bytes.Equal(data, m.data) {
		return m.lock, nil
	}
	l, err := p.lockfile().Parse(data, err)
	m.data, m.lock = nil, nil
	if err == nil && data != nil {
		m.data, m.lock = data, l
	}
	return l, err
}

// WriteCapture records what a build captured in the lock file, under the
// file lock: the anchors and parent stamps the capture stage made, each
// unless the lock on disk has one by now (another capture was first). A
// frozen build's capture writes nothing.
func (p *Project) WriteCapture(c *Captured, notes io.Writer) error {
	if c == nil || c.Result == nil {
		return nil
	}
	return p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		for _, ref := range c.Result.Captured {
			if _, ok := l.Anchors[ref]; !ok {
				l.Anchors[ref] = c.Lock.Anchors[ref]
			}
		}
		for _, key := range c.Result.Stamped {
			if _, ok := l.Parents[key]; !ok {
				if l.Parents == nil {
					l.Parents = map[string]codeanchors.ParentLink{}
				}
				l.Parents[key] = c.Lock.Parents[key]
			}
		}
		for _, key := range c.Result.Waivers {
			if _, ok := l.Waivers[key]; !ok {
				l.StampWaiver(key, c.Lock.Waivers[key])
			}
		}
		return nil
	})
}

// analyzeLoaded is the analysis stage: the drift of every link against l,
// judged once, and the code index.
func (p *Project) analyzeLoaded(ld *Loaded, l *codeanchors.Lock) *Analysis {
	a := &Analysis{Lock: l, Sources: ld.Sources, Report: p.judge(l, ld.Sources), Skipped: slices.Concat(p.skipped, ld.Skipped)}
	var files []*codeanchors.File
	for _, name := range ld.Code {
		s := ld.Sources[name]
		switch {
		case s.File != nil:
			files = append(files, s.File)
		case s.ParseErr != nil:
			a.Unparsed = append(a.Unparsed, s.ParseErr)
		}
	}
	project := p.projectFiles(ld.Code)
	if p.memo == nil {
		a.Index = codeanchors.BuildIndex(codeanchors.IndexInput{Files: files, Project: project})
		return a
	}
	m := &p.memo.indexes
	if m.index == nil || !slices.Equal(m.files, files) || !maps.EqualFunc(m.project, project, bytes.Equal) {
		*m = indexMemo{files: files, project: project, index: codeanchors.BuildIndex(codeanchors.IndexInput{Files: files, Project: project})}
	}
	a.Index = m.index
	return a
}

// indexMemo is a code index with what it was built from: a [Session]'s loads
// build the index again only when a code file's parse (a source whose
// bytes changed is parsed anew, see [sourceCache]) or a project file
// changes. An index is read-only once built.
type indexMemo struct {
	files   []*codeanchors.File
	project map[string][]byte
	index   *codeanchors.Index
}

// graphMemo is the last graph a [Session] drew, with its input's key
// ([synth.Input.Key]) and code index: an edit that changes neither (the
// prose of a page, the places of its claims) reuses it. A graph is
// read-only once drawn.
type graphMemo struct {
	key   [sha256.Size]byte
	index *codeanchors.Index
	graph *synth.Graph
}

// draw returns the graph of in: the last one when in's key and index are
// those it was drawn from, else a new one, kept for the next call.
func (m *graphMemo) draw(in synth.Input) *synth.Graph {
	key := in.Key()
	if m.graph == nil || m.key != key || m.index != in.Index {
		*m = graphMemo{key: key, index: in.Index, graph: synth.Build(in)}
	}
	return m.graph
}

// judge judges the drift of every link of the model against l and the
// sources: the one place in site that calls [codeanchors.Check], so that
// a test can count judgements (testHookJudge).
func (p *Project) judge(l *codeanchors.Lock, sources map[string]*codeanchors.Source) *codeanchors.Report {
	if testHookJudge != nil {
		testHookJudge(p)
	}
	rep := codeanchors.CheckWith(p.Model, p.targets(), l, sources, p.Externals)
	rep.Markers = codeanchors.JudgeMarkers(p.markers.unknown, p.Model)
	return rep
}

// targets is [codeanchors.Targets] of the model, collected once: the
// load, capture and analysis stages and serve's watcher all ask.
func (p *Project) targets() []codeanchors.Referenced {
	p.targetsMu.Lock()
	defer p.targetsMu.Unlock()
	if p.targetsOf != p.Model {
		p.targetsOf, p.targetList = p.Model, codeanchors.Targets(p.Model)
	}
	return p.targetList
}

// testHookJudge, when set by a test, is called once per drift judgement,
// with the project judged.
var testHookJudge func(*Project)
