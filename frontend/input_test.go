package frontend

import (
	"strings"
	"testing"
)

// A UTF-8 byte-order mark before a valid program is skipped: the program
// compiles to the same rules (positions on line 1 count its three bytes).
// Anywhere else it is an invalid character.
func TestByteOrderMark(t *testing.T) {
	const bom = "\uFEFF"
	src := readTestdata(t, "golden/call.pds")
	plain, err := Compile("call.pds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	marked, err := Compile("call.pds", []byte(bom+src))
	if err != nil {
		t.Fatalf("with a byte-order mark: got %v", err)
	}
	if len(marked.Rules) != len(plain.Rules) || len(marked.Labels) != len(plain.Labels) {
		t.Errorf("with a byte-order mark: got %d rules, %d labels want %d, %d",
			len(marked.Rules), len(marked.Labels), len(plain.Rules), len(plain.Labels))
	}
	_, err = Compile("bom.pds", []byte("proc main() { skip; }\n"+bom+"start main();\n"))
	if want := "bom.pds:2:1: invalid character (only ASCII is allowed outside comments)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("byte-order mark on line 2: got %v want %q", err, want)
	}
}
