package kotlin_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is the golden suite of testdata/extract (see its README.md).
var suite = langtest.Suite{
	Dir: "extract", Ext: []string{".kt", ".kts"}, Extract: kotlin.Extract,
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, imports)
	},
}

// imports renders a file's package and imports: "package NAME", then one
// import a line, "as ALIAS" after an aliased one.
func imports(f *lang.File) []byte {
	var b bytes.Buffer
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	for i, imp := range f.Imports {
		b.WriteString(imp)
		if f.ImportNames[i] != "" {
			b.WriteString(" as " + f.ImportNames[i])
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) { suite.Run(t) }

func FuzzExtractKotlin(f *testing.F) { suite.Fuzz(f, "fuzz.kt") }
