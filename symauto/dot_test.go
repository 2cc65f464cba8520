package symauto_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// dotProgram calls a recursive procedure with an argument and a result,
// so that post* has mid-states, epsilon-free returns and labels over
// every kind of copy; w starts at any of 32 values, more than a label
// lists.
const dotProgram = `int<5> w = ?;
int<2> d;
proc rec(int<2> n) : int<2> {
  d = d + 1;
  if (n < 3) { n = rec(n + 1); }
  return n;
}
proc main() {
  int<2> r;
  r = rec(0);
  assert(r == 3);
}
start main();
`

// TestWriteDOT: the DOT of an automaton has a node per state, p marked
// initial and s final, and an edge per transition labelled with its
// symbol and its relation over named copies, first assignments listed
// and the rest counted; the same automaton gives the same bytes, and
// Graphviz, when present, renders it.
func TestWriteDOT(t *testing.T) {
	net := compile(t, dotProgram)
	sp := symauto.NewSpace(net)
	init := sp.Init(net.Threads[0])
	for _, tc := range []struct {
		name string
		a    *symauto.Auto
	}{
		{"initial", init},
		{"post*", post(t, net)},
		{"post* tagged", func() *symauto.Auto {
			a, _, err := symauto.PostStar(t.Context(), init.Tag(init.Accepting()), 1)
			require.NoError(t, err)
			return a
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.a
			var out, again bytes.Buffer
			require.NoError(t, a.WriteDOT(&out))
			require.NoError(t, a.WriteDOT(&again))
			require.Equal(t, out.String(), again.String(), "two writes of one automaton")
			dot := out.String()
			require.True(t, strings.HasPrefix(dot, "digraph view {\n"))
			require.True(t, strings.HasSuffix(dot, "}\n"))
			require.Equal(t, strings.Count(dot, "{"), strings.Count(dot, "}"))

			nodes := regexp.MustCompile(`(?m)^  q(\d+) \[label="([^"]*)"(, shape=doublecircle)?\];$`).FindAllStringSubmatch(dot, -1)
			require.Len(t, nodes, a.NumStates(), "a node per state")
			require.Equal(t, []string{nodes[0][0], nodes[1][0]}, []string{`  q0 [label="p"];`, `  q1 [label="s", shape=doublecircle];`})
			require.Contains(t, dot, "  start -> q0;\n")

			edges := regexp.MustCompile(`(?m)^  q(\d+) -> q(\d+) \[label="(.*)"\];$`).FindAllStringSubmatch(dot, -1)
			ts := a.Transitions()
			require.Len(t, edges, len(ts), "an edge per transition")
			for i, tr := range ts {
				e := edges[i]
				require.Equal(t, fmt.Sprint(tr.From), e[1])
				require.Equal(t, fmt.Sprint(tr.To), e[2])
				lines := strings.Split(strings.TrimSuffix(e[3], `\l`), `\l`)
				sym := "ε"
				if tr.Label != nil {
					sym = tr.Label.Name
				}
				require.Equal(t, sym, strings.Fields(lines[0])[0])
				require.Regexp(t, `  \[\d+ BDD nodes\]$`, lines[0])
				require.LessOrEqual(t, len(lines)-1, pds.MaxPrintedAssignments+1)
				if len(lines)-1 > pds.MaxPrintedAssignments {
					require.Regexp(t, `^\.\.\. \(\d+ assignments\)$`, lines[len(lines)-1])
				}
			}
			if tc.name != "initial" {
				require.Regexp(t, `\\l\.\.\. \(\d+ assignments\)\\l"`, dot, "a label with more assignments than it lists")
				require.Contains(t, dot, "w@e=", "entry copies named")
				require.Contains(t, dot, "rec.n@l=", "the callee's entry locals named")
			}
			if tc.name == "post* tagged" {
				require.Contains(t, dot, "w@s=", "start copies named")
			}

			bin, err := exec.LookPath("dot")
			if err != nil {
				t.Skip("Graphviz's dot is not on PATH: the automaton was not rendered")
			}
			cmd := exec.Command(bin, "-Tsvg", "-o", "/dev/null")
			cmd.Stdin = strings.NewReader(dot)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Run(), "dot -Tsvg: %s", stderr.String())
			require.Empty(t, stderr.String())
		})
	}
}
