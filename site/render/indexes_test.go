package render

import "testing"

func TestFileLineHunk(t *testing.T) {
	tests := []struct {
		in           string
		oldAt, newAt int
		want         string
	}{
		{"@@ -2,5 +2,6 @@", 26, 28, "@@ -27,5 +29,6 @@"},
		{"@@ -3 +3 @@", 10, 12, "@@ -12 +14 @@"},
		{"@@ -0,0 +1,2 @@", 10, 12, "@@ -9,0 +12,2 @@"},
		{"@@ -1,4 +0,0 @@", 10, 0, "@@ -10,4 +0,0 @@"},
		{"not a hunk", 10, 12, "not a hunk"},
	}
	for _, tt := range tests {
		if got := fileLineHunk(tt.in, tt.oldAt, tt.newAt); got != tt.want {
			t.Errorf("fileLineHunk(%q, %d, %d) = %q, want %q", tt.in, tt.oldAt, tt.newAt, got, tt.want)
		}
	}
}
