package claims

import (
	"bytes"
	"os"
	"strings"
)

// A minimal txtar (the format of golang.org/x/tools/txtar): comment lines,
// then files, each starting with a "-- NAME --" line. go-internal's txtar
// package would do, but it needs golang.org/x/tools, which this module does
// not require.
type archive struct {
	Comment []byte
	Files   []archiveFile
}

type archiveFile struct {
	Name string
	Data []byte
}

func parseArchive(data []byte) *archive {
	a := &archive{}
	var name string
	a.Comment, name, data = findMarker(data)
	for name != "" {
		f := archiveFile{Name: name}
		f.Data, name, data = findMarker(data)
		a.Files = append(a.Files, f)
	}
	return a
}

func readArchive(file string) (*archive, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return parseArchive(data), nil
}

// findMarker returns the data before the next marker line, the marker's
// name ("" when there is none) and the data after it.
func findMarker(data []byte) (before []byte, name string, after []byte) {
	var i int
	for {
		if name, after = isMarker(data[i:]); name != "" {
			return fixNL(data[:i]), name, after
		}
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return fixNL(data), "", nil
		}
		i += j + 1
	}
}

func isMarker(data []byte) (string, []byte) {
	if !bytes.HasPrefix(data, []byte("-- ")) {
		return "", nil
	}
	line, after, _ := bytes.Cut(data, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !bytes.HasSuffix(line, []byte(" --")) || len(line) < len("-- x --") {
		return "", nil
	}
	return strings.TrimSpace(string(line[3 : len(line)-3])), after
}

// fixNL adds a final newline to non-empty data that lacks one.
func fixNL(data []byte) []byte {
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return data
	}
	return append(data[:len(data):len(data)], '\n')
}

func formatArchive(a *archive) []byte {
	var b bytes.Buffer
	b.Write(fixNL(a.Comment))
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(fixNL(f.Data))
	}
	return b.Bytes()
}
