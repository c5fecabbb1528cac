package ruby

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is Ruby's golden suite: the testdata/extract/*.txtar cases (see
// their README.md), with the requires in an "imports" section.
var suite = langtest.Suite{
	Dir: "extract",
	Ext: []string{".rb"},
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, langtest.PackageImports)
	},
	Language:  Language,
	Insert:    insertions,
	Comments:  comments,
	Highlight: &langtest.Highlight{Lexer: "Ruby", Files: []string{"lib/a.rb", "tasks/db.rake", "a.gemspec"}, Names: []string{"ruby", "rb"}},
}

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

// TestErrors checks that sources that do not parse give a clear error at
// the right place.
func TestErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"def f\n  1\n", "e.rb:1:1: `def` is not closed by end"},
		{"class A\nend\nend\n", "e.rb:3:1: end without a matching def, class, module, do, begin, if or loop"},
		{"x = 'abc\n", "e.rb:1:5: literal is not terminated"},
		{"x = <<~EOS\nabc\n", "e.rb:1:5: heredoc EOS is not terminated"},
		{"=begin\nnever\n", "e.rb:1:1: =begin comment is not closed by =end"},
		{"x = \"#{1 + \n", "e.rb:1:5: literal is not terminated (its #{ is not closed)"},
		{"f(do_it do\n)\n", "e.rb:1:9: `do` is not closed by end before )"},
		{"f(1))\n", "e.rb:1:5: unmatched )"},
		{"foo(\n  def x\n  end)\nend\n", "e.rb:4:1: end without a matching def, class, module, do, begin, if or loop"},
	} {
		langtest.ExpectExtractError(t, "Extract", Extract, "e.rb", tt.src, tt.want)
	}
}

// TestTokens checks the token rules: what a formatter may change keeps the
// tokens, other edits change them.
func TestTokens(t *testing.T) {
	texts := func(src string) string {
		f, err := Extract("t.rb", []byte(src))
		if err != nil {
			t.Fatalf("Extract(%q): %v", src, err)
		}
		return strings.Join(langtest.TokenTexts(f.Tokens), " ")
	}
	same := [][2]string{
		{"def f(a,b)\n  a+b\nend\n", "def f( a, b )\n    a + b\nend\n"},
		{"def f; 1; end\n", "def f\n  1\nend\n"},
		{"x = [\n  1,\n  2,\n]\n", "x = [1, 2]\n"},
		{"foo(a,\n    b)\n", "foo(\n  a,\n  b\n)\n"},
		{"a.\n  b.\n  c\n", "a\n  .b\n  .c\n"},
		{"x = 'plain'\n", "x = \"plain\"\n"},
		{"x = 1 # comment\n", "# before\nx = 1\n"},
		{"s = <<~EOS\n  a\n    b\nEOS\n", "s = <<~EOS\n      a\n        b\n    EOS\n"},
		{"\"#{ x }\"\n", "\"#{x}\"\n"},
		{"a = 1; b = 2\n", "a = 1\nb = 2\n"},
		{"def z?() false end\n", "def z?\n  false\nend\n"},
		{"x.map { |v| v * 2 }\n", "x.map do |v|\n  v * 2\nend\n"},
		{"if a then b else c end\n", "if a\n  b\nelse\n  c\nend\n"},
		{"s = <<EOS\nx\nEOS\n", "s = <<~EOS\n  x\nEOS\n"},
		{"foo()\n", "foo\n"},
	}
	for _, p := range same {
		if a, b := texts(p[0]), texts(p[1]); a != b {
			t.Errorf("tokens differ:\n%q: %s\n%q: %s", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{
		{"a\nb\n", "a b\n"},
		{"x = 'a b'\n", "x = 'a  b'\n"},
		{"s = <<-EOS\n  a\n  EOS\n", "s = <<-EOS\n    a\n  EOS\n"},
		{"f(a, b)\n", "f(a, c)\n"},
		{"x = :a\n", "x = 'a'\n"},
		{"super()\n", "super\n"},
		{"x = {}\n", "x = do end\n"},
	}
	for _, p := range differ {
		if a, b := texts(p[0]), texts(p[1]); a == b {
			t.Errorf("tokens equal for %q and %q: %s", p[0], p[1], a)
		}
	}
}

// FuzzExtractRuby checks that Extract never panics and that what it
// returns holds its invariants, or is an error naming the path.
func FuzzExtractRuby(f *testing.F) { suite.Fuzz(f, "fuzz.rb") }

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	{Text: "def tw_inserted(x)\n  x\nend\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 3)}, Nested: true},
	{Text: "class TwInserted\n  def m\n    1\n  end\nend\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 5), langtest.Sym("TwInserted.m", 2, 4)}, Nested: true},
}}}

// comments check that Extract hands out every comment once (#, those
// in an interpolation too, and =begin/=end blocks whole), with its lines,
// and nothing that only looks like one: in a string, a heredoc body, a
// %-literal, a regexp, a character literal, a symbol, or after __END__.
var comments = []langtest.CommentCase{{Path: "c.rb",
	Src: "# frozen_string_literal: true\n" +
		"=begin\n@implements REQ-1\n=end\n" +
		"class C # trailing\n" +
		"  def m(x)\n" +
		"    s = \"# not #{x # in an interpolation\n" +
		"    } a comment\" + '# nor'\n" +
		"    h = <<~EOS # after a heredoc opener\n" +
		"      # heredoc text\n" +
		"    EOS\n" +
		"    w = %w[# a] + %q(# b) + [?#, :\"#c\", /#d/]\n" +
		"  end\n" +
		"end\n" +
		"__END__\n" +
		"# data, not a comment\n",
	Want: []lang.Comment{
		{Line: 1, EndLine: 1, Text: "# frozen_string_literal: true"},
		{Line: 2, EndLine: 4, Text: "=begin\n@implements REQ-1\n=end"},
		{Line: 5, EndLine: 5, Text: "# trailing"},
		{Line: 7, EndLine: 7, Text: "# in an interpolation"},
		{Line: 9, EndLine: 9, Text: "# after a heredoc opener"},
	}}}
