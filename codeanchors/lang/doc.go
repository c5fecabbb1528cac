/*
Package lang is the contract between the anchor engine (package
codeanchors) and a language plug-in.

# How to add a language

A language is one package, codeanchors/NAME, plus one line in the registry.
Nothing else in the repository may know the language's file extensions,
project files (manifests) or test conventions: cmd/tracewiki's
TestLanguageKnowledgeStaysInItsPackage and TestDependencyPolicy enforce it.
Follow codeanchors/golang (the smallest), codeanchors/python or
codeanchors/javascript.

 1. Create codeanchors/NAME. It may import claims and codeanchors/lang only
    (its external _test package may also import codeanchors and
    codeanchors/lang/langtest). Export one value, Language, of a type
    implementing [Language], and Extract and Parser for tests and docs.
 2. Extract(path, src) (*File, error): never open a file; return every
    symbol with 1-based inclusive line ranges and byte offsets of those
    lines (use [LineStarts], [LineOf], [LineEnd]), call [File.SortSymbols]
    last. Name symbols by their enclosing declarations joined by dots:
    nested types and classes are Outer.Inner, methods Type.method,
    Outer.Inner.method. Several declarations of one name that are one
    symbol to a reader (overloads: Java, C#, C++, Kotlin methods; a
    Python @overload chain) are ONE symbol whose range runs from the first
    to the last; two unrelated definitions of one name go to
    [File.Ambiguous]. Mark tests with Kind [KindTest] through
    [IsTest](Language, path, name). A source that does not parse is an
    error "path:line:col: message" (a go/scanner.Error); no panic on any
    input, and the work stays linear in the input.
 3. Parser: "NAME/SCANNER@1". Bump the version whenever symbols, ranges or
    tokens change for some input, so old captures are re-resolved.
 4. Token rules ([File.Tokens]): the code tokens in source order, comments
    dropped, normalized so that the language's standard formatter (gofmt,
    black, prettier, google-java-format, rustfmt, clang-format, ...)
    cannot change a token hash and any other edit does. A token belongs
    to the line it starts on, and a symbol's token hash covers exactly
    the tokens that start on its lines ([HashTokens]): so a token must
    depend only on the text of its own range, never on code before or
    after it (an indentation token closing an earlier block belongs to
    that block's last line; see the Python scanner). Document the rules
    on Extract: codeanchors/doc.go points there. Hand out the comments
    ([File.Comments]) as the lexer meets them, each once, in source order,
    with comment cases in the language's langtest.Suite (look-alikes in
    strings and other literals must not count) and, where a reference
    tool lists comments, a conformance check against it.
 5. Extensions: the lower-case extensions with their dot. They become the
    default code include globs ([codeanchors.Registry.Globs]), so SPEC 1.1
    and docs/ need the new globs listed. A language whose tools write generated
    code into the workspace also implements [Excluder] (Rust: Cargo's target folder):
    its globs join the default code exclude.
 6. ProjectFile(name): the base names of the files that resolve imports
    (pom.xml, build.gradle.kts, *.csproj, Cargo.toml, composer.json,
    Gemfile, compile_commands.json, ...). The engine reads every such
    file in the folders of the code files and their parents and passes
    them, by root-relative path, to Link and MatchTests.
 7. Link(files, project) returns a [Linker]: Imports(f) gives the
    workspace files f imports (a package import: every non-test file of
    the package) and the imports that should be in the workspace but
    resolve to nothing; the standard library and third-party imports you
    can tell apart are not unresolved. ResolveCall(f, c) resolves a
    [Call] to exactly one definition, or gives up: a lexical hint must
    never guess.
 8. IsTest(path, symbol): the language's file and symbol naming rules
    (FooTest.java, *_test.rs or #[test] is not visible from a name: use
    the file rule). The rule common to every language (a tests or
    __tests__ folder) is applied by the engine ([InTestDir]).
 9. MatchTests(target, results, in): which [TestResult]s of a JUnit XML,
    TRX (converted to JUnit) or go test -json report a tests target stands
    for, or none unless the report has them all. JUnit's classname is
    Suite, name is Name, the file attribute is File. A whole-file target
    stands for every test in it ([TestInput].File gives its symbols).
    [MatchByModule] is the rule for dotted module names and is a good
    start (Java: package.Class from the path under src/test/java).
 10. Register: one line in codeanchors/extract.go's Default.
 11. Tests, with the shared harness codeanchors/lang/langtest (and its
    enginetest for external tests); each is one call or one table:
    - one langtest.Suite, and TestSuite calling suite.Run: Dir, Ext (each
    must have a case), Language, and Sections and Check when the defaults
    langtest.Sections and langtest.CheckFile do not fit, run goldens,
    CRLF and context-free hashes over testdata/extract/*.txtar cases, one
    per construct, with a README.md (-update rewrites them, refused in
    CI; stray files fail); Insert (langtest.InsertSet) runs the insertion
    property; Comments (langtest.CommentCase) the comment cases;
    Highlight the site's chroma lexer for the language's files, fences
    and cases;
    - FuzzExtractNAME calling suite.Fuzz (crashers committed under
    testdata/fuzz/); langtest.ExpectExtractError for error messages;
    - conformance against the language's own parser or compiler over a
    real corpus (installed by test.sh: a Debian package in its tools
    list, or npm packages the test installs into the user cache with
    langtest.NPM or langtest.NPMPackage; langtest.RunReference runs it on
    the files' paths and decodes its JSON lines, langtest.RefResult the
    [name, kind, start, end] form): convert the reference's output to
    langtest.RefFile per file, feed a langtest.Agreement with Add, and
    call Report with langtest.Golden for the cases, langtest.Corpus
    (99.5% names, 99% each range end, 1,000 symbols) for real code.
    It lives in a file tagged //go:build conformance, which test.sh sets:
    a plain go test needs nothing but Go (langtest's NPM, RunReference and
    RefResult exist only with the tag);
    - a formatter test, tagged too: formatting a corpus keeps every
    token hash (langtest.Stability counts symbols kept, reformatted and
    lost);
    - the insertion property is the suite's Insert: a few well-formed
    declarations (a declaration inserted between two others keeps every
    symbol, shifted, and adds its own, or Extract fails with path:line;
    never a silent loss);
    - BenchmarkExtractNAME with langtest.BenchExtract (tagged when it
    reads the conformance corpus);
    - drift in an external test (package NAME_test): an
    enginetest.Drift table (moved, reformatted, changed, vanished and the
    language's own traps), and linking and test matching through
    codeanchors.
 12. Docs: the language's target syntax and test matching in docs/, a
    claim in content/languages.md on its Extract, and SPEC 1.1's globs.

Symbol names are validated by claims: dot-separated identifiers of
letters, digits and '_'. A language whose symbols need more (JavaScript's
'$' and #private, C++'s ~Destructor, Ruby's valid?) implements [Syntaxer]:
the engine registers its [SymbolSyntax] with claims, which is never edited
for a language.

A hand-written front-end builds on codeanchors/lang/scan: scan.Extract
(the size guard, lex, parse, errors printed path:line:col), a scan.Lexer
embedded in the language's lexer (position, first error, C-style comments
and quotes, the comments it collects for [File.Comments]) and
scan.MatchBrackets.
*/
package lang
