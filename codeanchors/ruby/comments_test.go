package ruby

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once (#, those
// in an interpolation too, and =begin/=end blocks whole), with its lines,
// and nothing that only looks like one: in a string, a heredoc body, a
// %-literal, a regexp, a character literal, a symbol, or after __END__.
func TestComments(t *testing.T) {
	src := "# frozen_string_literal: true\n" +
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
		"# data, not a comment\n"
	langtest.ExpectComments(t, Extract, "c.rb", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "# frozen_string_literal: true"},
		lang.Comment{Line: 2, EndLine: 4, Text: "=begin\n@implements REQ-1\n=end"},
		lang.Comment{Line: 5, EndLine: 5, Text: "# trailing"},
		lang.Comment{Line: 7, EndLine: 7, Text: "# in an interpolation"},
		lang.Comment{Line: 9, EndLine: 9, Text: "# after a heredoc opener"},
	)
}
