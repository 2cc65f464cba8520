package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocumented: docs/json.md shows the schema's types as they are here.
func TestDocumented(t *testing.T) {
	src, err := os.ReadFile("schema.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	types := s[strings.Index(s, "// Output is the result of one run."):]
	if !strings.Contains(string(doc), types) {
		t.Errorf("docs/json.md does not show the types of schema.go as they are: copy them from \"// Output is the result of one run.\" to the end")
	}
}
