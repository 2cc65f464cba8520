package benchmarks

import (
	"fmt"
	"regexp"
	"strconv"
)

// Expected is the verdict a model's header states on its "// EXPECTED:"
// line (models/README.md): an assertion violation first reachable with
// Contexts contexts, or safety for every bound.
type Expected struct {
	Violation bool
	Contexts  int // fewest contexts of the violation; 0 when safe
}

var expectedRE = regexp.MustCompile(`(?m)^// EXPECTED: (?:assertion violation, fewest contexts (\d+)\b|safe for every bound\b)`)
var expectedLineRE = regexp.MustCompile(`(?m)^// EXPECTED:`)

// ParseExpected reads the one "// EXPECTED:" line of a model, in one of the
// two forms of models/README.md:
//
//	// EXPECTED: assertion violation, fewest contexts N (safe with -k N-1).
//	// EXPECTED: safe for every bound (no assertion violation for any k).
func ParseExpected(src []byte) (Expected, error) {
	if n := len(expectedLineRE.FindAllIndex(src, -1)); n != 1 {
		return Expected{}, fmt.Errorf("got %d \"// EXPECTED:\" lines, want 1", n)
	}
	m := expectedRE.FindSubmatch(src)
	if m == nil {
		line := expectedLineRE.FindIndex(src)
		end := line[0]
		for end < len(src) && src[end] != '\n' {
			end++
		}
		return Expected{}, fmt.Errorf("cannot read %q: want \"assertion violation, fewest contexts N\" or \"safe for every bound\"", src[line[0]:end])
	}
	if m[1] == nil {
		return Expected{}, nil
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil || n < 1 {
		return Expected{}, fmt.Errorf("fewest contexts %q: want a positive number", m[1])
	}
	return Expected{Violation: true, Contexts: n}, nil
}

// Within tells whether the violation is reachable within k contexts: what
// an analysis with bound k must answer.
func (e Expected) Within(k int) (violation bool, fewest int) {
	if e.Violation && k >= e.Contexts {
		return true, e.Contexts
	}
	return false, -1
}

// String is "violation at N" or "safe".
func (e Expected) String() string {
	if e.Violation {
		return fmt.Sprintf("violation at %d", e.Contexts)
	}
	return "safe"
}
