package interchange

import (
	"testing"
)

// The importers read other tools' files, which may be anything: they must
// never panic, and whatever they import must have valid, unique ids and
// parents that are among the items.
func checkResult(t *testing.T, r *Result) {
	seen := map[string]bool{}
	for _, it := range r.Items {
		if !validID(it.ID) || seen[it.ID] {
			t.Fatalf("item id %q invalid or repeated", it.ID)
		}
		seen[it.ID] = true
	}
	for _, it := range r.Items {
		for _, p := range it.Parents {
			if !seen[p.ID] {
				t.Fatalf("%s: parent %q is not an item", it.ID, p.ID)
			}
		}
		Render(it) // must not panic
	}
}

func seed(f *testing.F, name string) {
	files, err := readFixture(name)
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		f.Add(file.Name, file.Data)
	}
}

func FuzzImportStrictDoc(f *testing.F) {
	seed(f, "strictdoc")
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if r, err := ImportStrictDoc([]File{{Name: "x.sdoc", Data: data}, {Name: "warnings.sdoc", Data: data}}); err == nil {
			checkResult(t, r)
		}
	})
}

func FuzzImportDoorstop(f *testing.F) {
	seed(f, "doorstop")
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		checkResult(t, ImportDoorstop([]File{{Name: "d/.doorstop.yml", Data: []byte("settings: {prefix: D}")}, {Name: "d/D1.yml", Data: data}, {Name: "d/D2.md", Data: data}}))
	})
}

func FuzzImportReqIF(f *testing.F) {
	seed(f, "reqif")
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if r, err := ImportReqIF([]File{{Name: "x.reqif", Data: data}}); err == nil {
			checkResult(t, r)
		}
	})
}
