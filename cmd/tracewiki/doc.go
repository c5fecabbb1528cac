/*
Tracewiki builds a traceability wiki from a repository: wiki pages,
requirements, decisions and test evidence, with code anchors on every claim
that points at code, and drift checks that say what fell out of date.

Usage:

	tracewiki [--root DIR] COMMAND [flags] [args]

The workspace is --root, else found the way git finds its repository: the
nearest folder at or above the current one that holds tracewiki.toml or
tracewiki.lock, else the current folder when it holds content/; when none
is found, the command fails (init, symbols and diff then work in the
current folder). Paths in the content, the config and targets are relative
to the workspace and confined to it; paths given on the command line
(--report, --out, symbols FILE, diff folders) are relative to the current
folder, or absolute, like any other tool's. Configuration is the optional
tracewiki.toml at the root. Run "tracewiki COMMAND --help" for a command's
flags; help goes to standard output.

Commands:

	init        write a starter tracewiki.toml, content/ and .gitignore
	build       build the site: HTML pages and JSON artifacts
	symbols     print the symbols of source files
	capture     (re)capture code anchors into the lock file
	check       report the drift of every link
	evidence    record test evidence from a test report
	neighborhood  print the graph around a file, requirement or decision
	serve       preview the site with live reload
	diff        what changed between two builds, as a PR comment or JSON
	impact      what relies on changed paths: claims, pages, requirements, tests
	changelog   what changed in the requirements between two git revisions
	relink      follow moved code: rewrite links to relocated targets
	search      rank requirements, decisions, pages and code for a query, as JSON
	lookup      everything the wiki knows about one id, path or symbol, as JSON
	mcp         serve search, lookup and more to coding agents (Model Context Protocol)
	review      record that requirements were reviewed against their parents
	import      requirements from Doorstop, StrictDoc, ReqIF or OpenFastTrace
	export      the requirements as CSV, ReqIF or JSON, or the bundle

Exit codes: 0 ok; 1 findings that --fail-on asked to fail on; 2 bad usage or
bad input, reported as file:line: message.

# build

	tracewiki build [--out DIR] [--base-url URL] [--commit REV] [--frozen] [--strict] [--by WHO] [--cache DIR | --no-cache] [--fail-on STATES,REASONS]

Build writes the site: a page per requirement, decision, wiki page, source
file, test and run, each with its neighborhood drawn as SVG and an
index.json twin; the requirements matrix, the decisions, pages and code
indexes, the "out of date" page, code coverage and search; and
api/graph.json, drift.json, search.json, coverage.json and manifest.json with
their JSON Schemas in api/schemas/. The
site is written to a new folder beside --out (default: the config's output,
public) and swapped in only when complete, so a failed build leaves the
previous site as it was. Links are relative: the site works under any
--base-url and straight from the file system; the base URL makes the JSON
artifacts' URLs absolute. Targets never captured are captured first (the
lock is written) unless --frozen, which reports them as unknown instead.
--strict (release builds) refuses, with exit 2 before anything is built, an
external ([[externals]], docs/bundles.md) that capture has not pinned, whose
bundle changed since it was pinned, or that cannot be read.
A workspace with externals and no content builds an organisation's wiki
from the bundles alone: the combined matrix, coverage per repository, the
cross-repository graph, search, and every cross-repository link judged
against the other bundle as it is now (docs/bundles.md).
--fail-on exits 1 after writing the site when a link has one of the given
states or reasons (as for check).
With repo_url in tracewiki.toml, every code fragment, file page and "out of
date" entry links to its lines on the forge (GitHub, GitLab or Gitea URL
shapes; forge) at --commit (a hash, or a tag or branch git resolves;
default: git's HEAD); without repo_url, or outside git with no --commit,
there are no such links.
The build cache (--cache DIR; default: $TRACEWIKI_CACHE, else tracewiki in
the user cache folder; TRACEWIKI_CACHE=off or --no-cache for none) keeps
highlighted code and a record of what each build wrote into each output
folder: a build of an unchanged workspace into the folder it last built
renders and writes nothing, and files whose bytes did not change are
hard-linked from the previous site instead of written. Entries carry a MAC
keyed by a secret outside the cache (cache.key in $TRACEWIKI_CONFIG_DIR,
else tracewiki in the user config folder) and are checked on read (a
corrupt, foreign or forged one is ignored), written atomically, and
trimmed at most daily (unused for 30 days, or past 1 GiB).

# symbols

	tracewiki symbols [--json] FILE...

Symbols prints the symbols tracewiki finds in each file, as targets are
written (PATH@SYMBOL), with their kind and line range. With --json it prints
[{"path","symbol","kind","start","end"}]. A file that does not parse is an
error naming file:line:col.

# capture

	tracewiki capture [--stale] [--by WHO] [REF...]
	tracewiki capture --waivers [--by WHO] [ID|PATH...]

Capture resolves code targets and records their anchors in the lock file:
path, symbol, line range, text and token hashes, parser, captured text, when
and by whom. It is the explicit "I reviewed this code" action. With REFs it
(re)captures exactly those targets. Without, it captures every target the
content references that was never captured; --stale also recaptures every
target that is not linked. --by defaults to git's user.email. A target that
cannot be captured is named with its reason and gets no anchor; the exit code
is then 2.

Capture (and build) also stamps every policy waiver it sees for the first
time: the lock records the requirement's revision (or, for a
[[coverage.waivers]] entry, the file's hash) under REQ-1#RULE (PATH#RULE).
When that text changes, the waiver expires. --waivers re-arms the expired
(or never stamped) waivers of the given requirement ids and code paths, or
of every waiver without any, and captures nothing else: the explicit "I
reviewed this waiver against the new text" action. An id or path with no
waiver is exit 2. See docs/policy.md.

# check

	tracewiki check [--format text|json|sarif|github] [--all] [--strict] [--fail-on STATES,REASONS,policy,coverage] [--base-coverage FILE] [--lang en|es]

Check reports the live state of every link: each code target referenced by
a claim or a requirement, and each evidence entry. States are linked, stale
and unknown, with a reason and its why in the configured language. The text
format lists the problems first (stale, then unknown links), each with its
why, where its code moved ("moved to"), the nearest existing names ("did you
mean") and one line saying what to do; then each requirement's implemented,
tested and verified; then a summary. --all lists the linked links too, and
the superseded evidence entries. --format json (schemaVersion 2) prints one
entry per link: ref, state, reason, why, moved, reformatted, claimed_by,
relocated and suggestions.

Links may also be declared by markers in code comments (tracewiki's
implements and tests tags, StrictDoc's relation, OpenFastTrace's impl, utest
and itest tags, LOBSTER's trace comments; [markers] formats in
tracewiki.toml). Such a link says where: "marker at PATH:LINE" in the text,
source "marker" and markers ["PATH:LINE"] in the JSON. A marker naming a
requirement that does not exist is an unknown target_missing entry
requirement:ID, claimed by the code that holds it. See
docs/requirements.md.

Only a requirement's newest evidence entry (by recorded time, then run id)
is a live link. Each older one is superseded: history, listed with state
superseded, why "superseded by run:ID" and superseded_by run:ID, never a
finding.

--fail-on (repeatable, or comma-separated) exits 1, after the report is
printed, when a link has one of the given states (stale, unknown) or
reasons (content_changed, target_missing, tests_failed, ...); superseded is
refused (exit 2). In CI,
--fail-on stale,target_missing fails on drifted code, expired or failed
evidence and deleted or renamed files, and not on links nobody captured yet
(uncaptured); --fail-on stale,unknown fails on every problem. See
docs/reasons.md.

--fail-on coverage gates code coverage by requirements (the share of the
code index's symbols that a requirement's implements or tests link covers,
as api/coverage.json counts it; see docs/coverage.md): exit 1 when the share
is below [coverage] min of tracewiki.toml, or, with --base-coverage FILE (an
earlier build's api/coverage.json), below that file's share: a ratchet. The
text format ends with the figures ("coverage: 812 of 1000 symbols covered
(81.2%), min 80.0%"); the other formats print them on standard error. With
neither a min nor a base, --fail-on coverage is refused (exit 2). The gate
reads every code file, as a build does.

With [[policy.rules]] in tracewiki.toml (or requirements imported from
OpenFastTrace with a needs field), check also judges the policy: after the
link problems the text lists each requirement that violates a rule or whose
waiver expired (--all: the justified ones too), with why and what to do,
then a count; the JSON's "policy" lists every entry {rule, node, state
(violated, justified, waiver_expired), why, waiver}; SARIF has a result per
entry (a justified one suppressed) and github a warning per finding.
--fail-on policy exits 1 on violated entries and expired waivers (check
only: build refuses it). See docs/policy.md.

--format sarif prints a SARIF 2.1.0 log for code scanning: one rule per
reason, one result per stale (level warning) or unknown (level note) link,
located at the target's current lines, or where the link is written when
the target is gone; expired evidence is located at its requirement. Every
place the link is written is a related location. --format github prints
GitHub Actions workflow commands, one line per stale (::warning) or unknown
(::notice) link, located the same way, and the counts on standard error.
Paths in these outputs are relative to the workspace (the repository root
in CI). See docs/ci.md.

# evidence

	tracewiki evidence --run ID --report FILE|- [--by WHO]

Evidence reads a test report (JUnit XML or go test -json; FILE is relative
to the current folder or absolute, - reads standard input) and records, for
every requirement whose linked tests all appear in it, an evidence entry
against the requirement's current revision, with each test's outcome and
the token hash of every implements and tests target as the working tree
has it now. The requirement's newest entry decides whether it is verified:
an entry whose tests did not all pass is stale (tests_failed); one whose
requirement changed since is stale (requirement_changed_since_verification);
one whose code changed since (other tokens; a reformat does not count) is
stale (code_changed_since_verification). The older entries stay in the lock
as the requirement's history, superseded; [evidence] keep in tracewiki.toml
(default 20) bounds them, and a command that drops the oldest says how many.

# relink

	tracewiki relink [--dry-run]

Relink follows code that moved or was renamed. A target_missing or
symbol_not_found link whose captured code is found elsewhere in the
workspace carries relocated candidates: same_text (the captured hash),
same_tokens (the captured token hash), same_body (the captured body hash:
the same code under another name) or same_name (the symbol's name in one
other file). For each link with a single same_text, same_tokens or
same_body candidate, relink rewrites the link in every content file (code:
links, frontmatter targets and code:// URIs) and moves its anchor in the
lock (a renamed symbol's anchor takes its new lines and hashes), and prints
each rewrite. It never guesses: several candidates, or a same_name one
alone, are printed as "not relinked" for a person to decide. --dry-run
prints the same and writes nothing.

# review

	tracewiki review [--by WHO] ID... | --all-suspect --yes

Review records, in the lock file, that each named requirement was reviewed
against its parents: every parent link of it is stamped with the parent's
current revision, who (--by, default git's user.email) and when. A parent
link whose parent changed since its last review is stale (parent_changed,
"suspect") in check, the site, SARIF and diff until then. --all-suspect
reviews every suspect link at once and needs --yes. A link never stamped is
stamped by the first build or capture that sees it.

# import

	tracewiki import doorstop|strictdoc|reqif|openfasttrace|xlsx PATH [--force] [--by WHO]

Import reads another tool's requirements (PATH, a folder or a file, is
relative to the current folder) and writes them as Markdown files under
content/requirements/DOCUMENT/: the Doorstop prefix, the StrictDoc
document title, the ReqIF specification name or the OpenFastTrace file's
path, as a slug. Doorstop:
.doorstop.yml documents with their YAML or Markdown items (uid, level,
header, text, normative, derived, active, links with their fingerprints,
ref and file references). StrictDoc: .sdoc documents with their grammar,
sections, requirements and custom elements, multi-line fields, Parent,
Child and File relations, and [DOCUMENT_FROM_FILE] fragments. ReqIF: .reqif
files and .reqifz archives: spec objects and their attributes, the spec
hierarchy as order and sections, spec relations as parent links.
OpenFastTrace: the items of .md and .markdown files, read by OFT's own
Markdown grammar; ids kept as type~name~rev, the heading above the id as
title, description, Rationale and Comment as body, the artifact type as
fields.type, Needs as fields.needs (what the policy asks of it), Covers as
parent links, Depends as fields.depends, Status (approved -> accepted,
draft and proposed -> proposed, rejected), Tags, and forwards
(arch --> dsn : req~x~1) as items arch~x~1. XLSX: a workbook as export
xlsx writes it; each sheet's columns are found by their header row, in any
order; the computed columns and the Matrix and Coverage sheets are read
past, and any column tracewiki does not know becomes a custom field. Parent
links are stamped in the lock; a link the source calls suspect stays
suspect (parent_changed) until "tracewiki review". Each file records
imported: {from, hash}; a second import writes only what changed, and a
file edited since (or never imported) is kept unless --force; the file of
an item the source dropped is removed when unedited, else kept and
reported. Nothing is written unless the result loads (ids, parent cycles,
self-parents, sizes): else exit 2 naming the source's file:line. A source
with no item in it is exit 2. The report lists items imported, files
removed, parent links, and every item, field or relation not mapped, with
why.

# export

	tracewiki export csv|reqif|json|xlsx|bundle [--out FILE] [--document ID]
	tracewiki export html --out FILE [--document ID]
	tracewiki export pdf --out FILE [--document ID] [--browser PATH]

Export prints (or writes to --out) every requirement with its document,
level, parents, implements and tests with their states, tags, fields, and
implemented, tested, verified and stale. CSV columns: id, document, level,
title, status, normative, parents, implements, tests, tags, verified,
implemented, tested, stale, reasons, then one per custom field; list cells
are joined with ";"; a cell starting with =, +, -, @, TAB or CR gets a
leading ' so that no spreadsheet reads it as a formula. JSON follows
api/schemas/export.schema.json. A ReqIF export nests its SPEC-HIERARCHY by
document and level and imports back into the same requirements, levels and
parent links. An XLSX export (--out is required) is a workbook with one
sheet per document (the CSV columns with text and derived, then one per
custom field), a Matrix sheet, a Coverage sheet (per document), a Code
coverage sheet (as api/coverage.json) and a Documents sheet; header rows are
frozen with filters, every cell is a text cell through the same leading '
rule, and two exports of the same content are the same bytes (the date
recorded is SOURCE_DATE_EPOCH, else a fixed one). "import xlsx" reads it
back. --document ID keeps the requirements of one document (a folder under
requirements/) and those nested in it.

export bundle writes the repository's bundle (SPEC 1.8), the bytes a build
writes to api/bundle.json (a frozen build's, with the config's baseURL, at
git's HEAD): requirements with their plain text and states, the anchors of
every linked target and every symbol of the code index with the hashes of
their current lines, evidence states and coverage. Its schema is
api/schemas/bundle.schema.json.

html writes one self-contained HTML file to sign or file: a title page
(project, document, git revision, date: SOURCE_DATE_EPOCH's when set, else
the revision's commit date, never the clock), a table of contents, then
each requirement document (or only --document ID, with the documents
nested in it) with its requirements in level
order, each with its state (implemented, tested, verified, stale and why),
its links to code (lines captured, lines now, state), parents and children,
its evidence and its neighborhood graph. Styles, images and graphs are
inlined; it has no script and loads nothing, and links out only to the
forge. Its print stylesheet starts each document on a new page and puts
the document, the revision and the page number in the page margins.
pdf prints that file with a local headless Chromium (--browser PATH, or
chromium, chromium-browser or google-chrome on PATH; none found is exit 2).

--out FILE is relative to the current folder. Export refuses what build
refuses to replace (the lock, the config, the workspace, a source file,
anything in .git) and any file in the content folder, and writes through a
temporary file renamed over FILE: a symlink there is replaced, not written
through, and a failed export leaves the old file as it was.

# neighborhood

	tracewiki neighborhood [--path P] [--req K] [--issue K] [--depth N]

Neighborhood prints, as JSON, the part of the traceability graph around a
file (its symbols and the requirements that target it), a requirement and/or
a decision, breadth-first to --depth hops (1 to 3; other values are clamped,
and the JSON says which depth was used). Nodes are requirements, decisions,
symbols, tests, runs, pages and files; edges are declared (written in the
content), located (found in the code, or a decision mentioning a path or
id: hints) or verified (evidence for the requirement's current revision).
Every node and edge says whether it is stale and why. A key that does not
exist is listed in "unknown". At most 400 nodes and 800 edges ("truncated"
says when the answer was cut).

# diff

	tracewiki diff OLD_OUT NEW_OUT [--format markdown|json] [--preview-url URL]

Diff compares two built sites by their JSON artifacts (api/manifest.json,
api/graph.json, api/drift.json and api/search.json of each output folder;
the folders are only read, and may lie outside the workspace). It reports:

	links that went stale or unknown (new in the drift, or with another
	  state or reason), with the reason and why, and what they were before;
	links fixed: stale or unknown before, now linked or no longer referenced
	  (an evidence entry: superseded by a newer run);
	requirements whose implemented, tested or verified changed, or that
	  were added or removed;
	claims added and removed: declared links to code (claims, implements,
	  tests), by the node that makes them;
	pages changed: requirements, decisions and wiki pages added or removed,
	  or whose title, status, text (search text, requirement revision),
	  stale badge or why, claims or other declared links changed.

The Markdown is a pull-request comment: a heading with the counts, then a
section per non-empty list, at most 20 items each ("… and N more"). With
--preview-url every link points into the new build served at that URL.
When nothing changed it is the one line "No traceability changes.". The
JSON (--format json) has every item, each list sorted: by ref, requirement
id, src/kind/ref, and node order. A missing or unreadable artifact is
reported as file: message, exit code 2. Diff always exits 0 otherwise.
Flags may come before or after the two folders.

# changelog

	tracewiki changelog --base REV [--head REV] [--format text|markdown|json]

Changelog compares the requirements at two git revisions (--head defaults
to HEAD), each read from git's object store: nothing is checked out and
the working tree is not read. It lists requirements added, removed and
changed (the fields that changed, with a unified diff of title and body; a
re-wrapped paragraph or field is no change), parents and links
(implements, tests) added or removed, verification changes (newly
verified, no longer verified, and why: each revision judged against its
own lock and code), and the policy and coverage deltas when there are
rules or code. Markdown suits a release note or a PR comment; JSON is
changelog.schema.json's shape, every list sorted by id. A revision git
does not have (a typo, or a tag a shallow clone lacks) is exit code 2
naming it.

With [baselines] tags = "v*" in tracewiki.toml, build makes a Releases
page: each matching tag (ordered by tag date, then name) with its
changelog to the previous one and the matrix at that tag, and
api/changelog.json. Baselines are kept in the build cache by commit.

# impact

	tracewiki impact [--base REV] [--format text|json] [--budget-tokens N] [PATH[#Lx-Ly]...]

Flags may come before or after the paths; after "--" every argument is a
path.

Impact lists what relies on changed paths of the workspace: for each path,
its roots, the at most 3 changed files, symbols and tests (and wiki pages,
by their file) most relied on, the rest counted; for each root every
declared edge into it (claims, requirements' implements and tests, links
between pages), and up to 12 incoming located candidates (tests that call
it, callers, importers of the file, decisions mentioning it), tests first,
each with its relation and why; then the requirements, decisions and pages
that rely on any changed node, each with its title, file and an excerpt
(its claim on the changed code, else the start of its text), and the tests.
JSON (--format json) is one compact line.

With --budget-tokens N (tokens = bytes of the JSON / 4), sections are shed
in this order until the answer fits: excerpts, candidates beyond the first
4 per root, pages beyond the first 6, roots beyond the first per path. When
even that does not fit, "budget" says "fits": false. Without a budget
nothing is shed, and the answer equals the one with an ample budget but for
"budget".

The changed paths are the arguments (relative to the workspace root; a
PATH#Lx-Ly argument changes only those lines), or with --base those of
"git diff REV" run in the workspace root: committed, staged and unstaged
changes of tracked files; untracked files are not included. With --base,
arguments restrict the diff to those paths. A symbol changed when a changed
line of its current text lies in its range (a deletion, between two of its
lines); without lines (a path argument, a deleted file) every symbol of
the file changed. A target whose symbol is no longer found counts as
changed. Git missing, a path outside the workspace or an unknown REV is
exit code 2.

# serve

	tracewiki serve [--addr 127.0.0.1:1313] [--public] [--host NAME]... [--base-url URL] [--cache DIR | --no-cache]

Serve builds the site in memory and serves it over HTTP for previewing. The
build is frozen: serve never writes the lock file or the output folder, and
targets never captured show as unknown (uncaptured); run "tracewiki capture"
to capture them. It watches the content, the code and tracewiki.toml, and
rebuilds after each burst of changes, reading again only the files that
changed (parses of unchanged source files are reused, highlighted code
comes from the build cache) and rendering pages when they are requested;
open pages reload by themselves. A broken edit (a content problem,
a bad config) keeps the last good site served, with the problems, as
file:line: message, in a banner on every page, until an edit fixes them.

The site is served under --base-url (default: the config's baseURL): a folder
URL serves its index.html; anything else that is not a file of the site is
404. GET /api/neighborhood?path=P&req_key=K&issue_key=K&depth=N answers the
JSON of "tracewiki neighborhood" from the current graph. Server-sent events
at /__tracewiki/events announce each rebuild; the reload script is added to
pages as they are served, never to a built site.

--addr must be a loopback address (127.0.0.1, ::1 or localhost) unless
--public is given: a preview is not published to the network by accident.
Only requests whose Host header is a loopback name or address (localhost,
*.localhost, 127.0.0.1, [::1]) are answered, others get 421, so a web page
that rebinds its own name to 127.0.0.1 cannot read the preview; --host NAME
(repeatable) adds a name, such as the one other machines use with --public.
Ctrl-C (or SIGTERM) stops the server; a second Ctrl-C quits at once.
# init

	tracewiki init [--agents]

Init writes a starter tracewiki.toml (every default spelled out) and a small
content/ folder: a home page, a requirement and a decision that show the
formats. It never overwrites a file: when any of them exists, it writes
nothing and says which.

The config's [code] include names every language init finds in the folder:
by project file (go.mod, pom.xml, ...) and by code file (*.py, ...), so a
Go module with Python scripts includes both. When it finds none, include is
left out: the default, every language tracewiki knows.

With --agents, init writes only tracewiki's section of AGENTS.md, between
<!-- tracewiki:begin --> and <!-- tracewiki:end -->: what a coding agent
should ask the wiki before editing code (lookup, search, impact) and how to
record claims and evidence after. It creates the file, appends the section
to a file without it or replaces the section of a file with it, and
touches nothing else; it works in an existing workspace (the file is the
workspace root's). Markers that do not pair up are refused (AGENTS.md:LINE:
what is wrong, exit code 2) and nothing is written. See docs/agents.md.
# search

	tracewiki search [--kind TYPE] [--limit N] [--explain] [--budget-tokens N] QUERY...

Search ranks every node of the graph (requirements, decisions, pages, symbols,
tests, runs, files) for the query and prints one line of JSON:
{"type":"knowledge-search","schemaVersion":2,"query","terms","corrected",
"count","limit","results":[{"id","type","title","path","score","coverage",
"matched","stale","lines","excerpt"}],"hint"}. Ask in words or sentences:
the query is split into words (case, camelCase, snake_case and punctuation
do not matter), stop words ("where", "is", "the") are dropped, and words are
stemmed ("reasons" finds "reason"; Spanish when language = "es"). A word
found nowhere is replaced by the most frequent word of the wiki one edit away
(two for words of 8+ letters), and "corrected" says so. Every node holding
any of the words is a candidate (count); results are the best --limit
(default 10): an exact id ("REQ-3", "src/a.go@F") first, then an exact
title, then by BM25F score over the fields id, title, headings, body (with
claims) and code names and paths, with a bonus where two query words stand
next to each other (growing with how often and in which fields); ties by node type (requirement, decision, symbol, test,
run, page, file) then id, so --kind (requirement, decision, page, symbol,
test, file, run, document) never changes the relative order. Each result
says which words it "matched", the share of the words it covers
("coverage"), whether it is stale, a symbol's or test's "lines", and an
"excerpt" around its best-matching passage. When nothing matches, "hint"
says why and names near words. --explain adds each result's tier and each
field's share of its score. --budget-tokens fits the answer into N tokens,
estimated as the bytes of the printed JSON / 4: excerpts are shed first,
then results beyond the first 5, and "budget" says what was shed. When the
last build (with the build cache, $TRACEWIKI_CACHE or the user cache
folder) left the workspace up to date and nothing changed since, search
ranks from the index that build wrote instead of analyzing the workspace;
the answer is the same.

# lookup

	tracewiki lookup [--depth 1-3] [--budget-tokens N] ID|PATH|PATH@SYMBOL

Lookup prints, as one line of JSON, everything the wiki knows about one
entity: a requirement, decision or run id (or any node id), a PATH@SYMBOL
target, a source file or a content file. It holds the entity (a node of
"tracewiki neighborhood"), its neighbors within --depth hops grouped by the
kind of edge that reached them (each with distance, direction in or out, and
via: the node one hop closer), the documents covering it (a declared link)
and mentioning it (a located mention, or its id, symbol or path in their
text), the links to code it makes or receives with the captured range and
at most 240 characters of the current code, its drift (check entries that
are not linked) and its evidence, newest first. An id that names nothing is
listed in "unknown". Bounds: 32 neighbors per edge kind, 8 evidence
entries, 64 claims, 64 drift entries, 32 documents per list, 400 nodes
walked; "truncated" counts what each bound left out.

With --budget-tokens N (tokens = bytes of the printed JSON / 4), sections
are shed in this order until the answer fits: excerpts,
documents.mentioning, neighbors at distance 3, then 2, documents.covering,
evidence beyond the newest, located neighbors at distance 1, claims beyond
the first 8. The entity and its declared links are never shed; when even
they do not fit, "budget" says "fits": false. "budget" is {"tokens",
"estimate", "estimator", "fits", "shed"}. Without a budget nothing is shed,
and the answer equals the one with an ample budget but for "budget".

# mcp

	tracewiki mcp

Mcp serves the Model Context Protocol over standard input and output, for
coding agents: the tools search, lookup, neighborhood, check and impact,
whose arguments are the flags of those commands and whose results are
their JSON; every code target as a resource (its code:// URI) returning its
fragment, at most 240 lines, with the captured and current lines and its
state; and the resource templates tracewiki://requirement/{id},
tracewiki://decision/{id} and tracewiki://page/{path}, returning the lookup
JSON. It reads the workspace once and rebuilds its answers after the
content, the code or the config change, reading again only the files that
changed, like serve. It never writes the
lock or the output, and logs to standard error only. A line that is not a
JSON-RPC 2.0 request or notification is answered with a JSON-RPC error
(-32700, -32600) and the server goes on; at the end of its input it answers
every request read, then exits 0. See docs/agents.md.
*/
package main
