package cuba_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
)

// testOpts keeps the BDD tables small: CUBA relations are tiny, and the
// fuzz target creates a manager per input. (It also guarded against
// bdd.Support costing time in proportion to the node table, which made
// Validate take seconds on dekker with the default table.)
var testOpts = pds.Options{BDD: bdd.Config{NodeTable: 1 << 10, CacheSize: 1 << 10}}

// read reads an instance and checks its network again with Validate.
func read(t testing.TB, pdsSrc, initSrc string) *cuba.Instance {
	t.Helper()
	in, err := cuba.Read("a.pds", []byte(pdsSrc), "a.init", []byte(initSrc), testOpts)
	require.NoError(t, err)
	require.NoError(t, in.Net.Validate())
	return in
}

func printed(t testing.TB, n *pds.Network) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, n.Print(&b))
	return b.String()
}

// twoThreads uses every rule kind, comments, blank lines and symbols
// outside the declared ranges.
const twoThreads = `# two threads
3
PDA 0 1   # the range is not checked: 2 occurs
0 0 -> 1 1 2   # push 1 on top of 2
1 1 -> 1 -     # pop

1 2 -> 2 0     # overwrite
PDA 5 6
	2 5 ->	0 6
`

const twoThreadsPrinted = `global shared shared = 0
proc T0
  label T0.0 @a.pds:4 entry
  label T0.1 @a.pds:4
  label T0.2 @a.pds:4
proc T1
  label T1.5 @a.pds:9 entry
  label T1.6 @a.pds:9
rule 0 push T0.0 -> T0.1 T0.2 @a.pds:4
    shared=0 shared'=1
rule 1 pop T0.1 @a.pds:5
    shared=1
rule 2 step T0.2 -> T0.0 @a.pds:7
    shared=1 shared'=2
rule 3 step T1.5 -> T1.6 @a.pds:9
    shared=2 shared'=0
thread T0: T0.0
thread T1: T1.6 T1.5
`

func TestRead(t *testing.T) {
	tests := []struct {
		name       string
		pds, init  string
		want       string
		bits       int   // width of the shared variable
		symbols    []int // per thread: len(Symbols[i])
		stackDepth []int // per thread
	}{
		{
			name: "rule kinds", pds: twoThreads, init: "0|0,6.5\n",
			want: twoThreadsPrinted, bits: 2, symbols: []int{3, 7}, stackDepth: []int{1, 2},
		},
		{
			name: "CRLF", pds: strings.ReplaceAll(twoThreads, "\n", "\r\n"), init: "0|0,6.5\r\n",
			want: twoThreadsPrinted, bits: 2, symbols: []int{3, 7}, stackDepth: []int{1, 2},
		},
		{
			name: "no final newline", pds: strings.TrimSuffix(twoThreads, "\n"), init: "0|0,6.5",
			want: twoThreadsPrinted, bits: 2, symbols: []int{3, 7}, stackDepth: []int{1, 2},
		},
		{
			name: "one state, empty stacks, init comment",
			pds:  "1\nPDA 0 0\n0 0 -> 0 -\nPDA 1 1\nPDA 1 1\n0 3 -> 0 3\n",
			init: "# start\n 0 | 0 , - ,  # thread 2 is finished\n",
			want: `global shared shared = 0
proc T0
  label T0.0 @a.pds:3 entry
proc T1
proc T2
  label T2.3 @a.pds:6 entry
rule 0 pop T0.0 @a.pds:3
    shared=0
rule 1 step T2.3 -> T2.3 @a.pds:6
    shared=0
thread T0: T0.0
thread T1:
thread T2:
`,
			bits: 1, symbols: []int{1, 0, 4}, stackDepth: []int{1, 0, 0},
		},
		{
			name: "init-only symbols get labels",
			pds:  "5\nPDA 0 9\n4 1 -> 3 1\n",
			init: "4|7.9.1",
			want: `global shared shared = 4
proc T0
  label T0.1 @a.pds:3 entry
  label T0.7 @a.init:1
  label T0.9 @a.init:1
rule 0 step T0.1 -> T0.1 @a.pds:3
    shared=4 shared'=3
thread T0: T0.7 T0.9 T0.1
`,
			bits: 3, symbols: []int{10}, stackDepth: []int{3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := read(t, tc.pds, tc.init)
			require.Equal(t, tc.want, printed(t, in.Net))
			require.Equal(t, tc.bits, in.Shared.Type.Bits)
			require.Equal(t, in.States, len(in.Shared.Type.Values))
			require.Len(t, in.Symbols, len(tc.symbols))
			for i, n := range tc.symbols {
				require.Len(t, in.Symbols[i], n, "thread %d", i)
				for a, l := range in.Symbols[i] {
					if l == nil {
						continue
					}
					th, sym := in.Symbol(l)
					require.Equal(t, []int{i, a}, []int{th, sym})
					require.Equal(t, in.Net.Procs[i], l.Proc)
				}
				require.Len(t, in.Net.Threads[i].Stack, tc.stackDepth[i])
			}
		})
	}
}

func TestSymbolNames(t *testing.T) {
	in := read(t, twoThreads, "0|0,6.5")
	require.Equal(t, "2|1,-", in.FormatVisible(2, []*pds.Label{in.Symbols[0][1], nil}))
	require.Equal(t, "6", in.SymbolName(in.Symbols[1][6]))
	th, sym := in.Symbol(&pds.Label{ID: 0, Name: "foreign"})
	require.Equal(t, []int{-1, -1}, []int{th, sym})
	require.Equal(t, "foreign", in.SymbolName(&pds.Label{ID: 99, Name: "foreign"}))
}

func TestReadErrors(t *testing.T) {
	const ok = "2\nPDA 0 1\n0 0 -> 1 1\n"
	tests := []struct {
		name, pds, init string
		want            []string // the error lines, in order
	}{
		{"empty pds", "", "0|0", []string{
			"a.pds:1: missing shared-state count: the file is empty"}},
		{"only comments", "# nothing\n\n  # here\r\n", "0|0", []string{
			"a.pds:1: missing shared-state count: the file is empty"}},
		{"missing count", "PDA 0 1\n0 0 -> 0 1\n", "0|0", []string{
			"a.pds:1: missing shared-state count: the first line must be the number of shared states"}},
		{"missing count before a rule", "0 0 -> 0 1\n", "0|0", []string{
			"a.pds:1: missing shared-state count: the first line must be the number of shared states",
			`a.pds:1: rule before the first "PDA l1 l2" block`,
			`a.pds:1: no "PDA l1 l2" block: the system has no thread`}},
		{"two numbers for the count", "3 4\nPDA 0 1\n", "0|0", []string{
			"a.pds:1: missing shared-state count: the first line must be the number of shared states",
			`a.pds:1: rule before the first "PDA l1 l2" block`}},
		{"zero count", "0\nPDA 0 1\n", "0|0", []string{
			"a.pds:1: shared-state count is 0: want at least one shared state"}},
		{"negative count", "-2\nPDA 0 1\n", "0|0", []string{
			"a.pds:1: shared-state count: negative number -2"}},
		{"count too large", "65537\nPDA 0 1\n", "0|0", []string{
			"a.pds:1: shared-state count 65537 is too large (at most 65536)"}},
		{"count overflows", "18446744073709551616\nPDA 0 1\n", "0|0", []string{
			"a.pds:1: shared-state count: number 18446744073709551616 is too large"}},
		{"count not a number", "three\nPDA 0 1\n", "0|0", []string{
			`a.pds:1: shared-state count: want a number, got "three"`}},
		{"no blocks", "2\n", "0|", []string{
			`a.pds:1: no "PDA l1 l2" block: the system has no thread`}},
		{"rule before block", "3\n0 0 -> 1 1\nPDA 0 1\n0 0 -> 0 0\n", "0|0", []string{
			`a.pds:2: rule before the first "PDA l1 l2" block`}},
		{"malformed header", "3\nPDA 0\nPDA x 1\nPDA 1 -1\n", "0|0,0,0", []string{
			`a.pds:2: malformed block header: want "PDA l1 l2"`,
			`a.pds:3: block header: want a number, got "x"`,
			`a.pds:4: block header: negative number -1`}},
		{"state out of range", "21\nPDA 0 1\n\n\n\n0 1 -> 25 1\n21 1 -> 0 1\n", "0|1", []string{
			"a.pds:6: shared state 25 out of range 0..20",
			"a.pds:7: shared state 21 out of range 0..20"}},
		{"symbol too large", "2\nPDA 0 1\n0 1048576 -> 1 1\n0 1 -> 1 1 2000000\n", "0|1", []string{
			"a.pds:3: stack symbol 1048576 is too large (at most 1048575)",
			"a.pds:4: stack symbol 2000000 is too large (at most 1048575)"}},
		{"huge numbers", "2\nPDA 0 1\n99999999999999999999999 0 -> 1 1\n0 0 -> 1 99999999999999999999999\n", "0|1", []string{
			"a.pds:3: shared state: number 99999999999999999999999 is too large",
			"a.pds:4: stack symbol: number 99999999999999999999999 is too large"}},
		{"negative numbers", "2\nPDA 0 1\n0 -1 -> 1 1\n-0 1 -> 1 -3\n", "0|1", []string{
			"a.pds:3: stack symbol: negative number -1",
			"a.pds:4: shared state: negative number -0",
			"a.pds:4: stack symbol: negative number -3"}},
		{"non-numeric", "2\nPDA 0 1\n0 x -> 1 1\n0 1 -> 1 0x1\nPDS 0 1\n", "0|1", []string{
			`a.pds:3: stack symbol: want a number, got "x"`,
			`a.pds:4: stack symbol: want a number, got "0x1"`,
			`a.pds:5: unexpected "PDS": want a rule "s a -> s' ..." or a block header "PDA l1 l2"`}},
		{"malformed rules", "2\nPDA 0 1\n0 1 => 1 1\n0 1 -> 1\n0 1 -> 1 1 1 1\n0 1 -> 1 - 1\n0 1 -> 1 1 -\n0 1->1 1\n", "0|1", []string{
			`a.pds:3: malformed rule "0 1 => 1 1": want "->" as the third field, got "=>"`,
			`a.pds:4: malformed rule "0 1 -> 1": want "s a -> s' b c", "s a -> s' b" or "s a -> s' -"`,
			`a.pds:5: malformed rule "0 1 -> 1 1 1 1": want "s a -> s' b c", "s a -> s' b" or "s a -> s' -"`,
			`a.pds:6: malformed rule "0 1 -> 1 - 1": want "s a -> s' b c", "s a -> s' b" or "s a -> s' -"`,
			`a.pds:7: malformed rule "0 1 -> 1 1 -": want "s a -> s' b c", "s a -> s' b" or "s a -> s' -"`,
			`a.pds:8: malformed rule "0 1->1 1": separate the fields by spaces`}},
		{"too many errors", "2\nPDA 0 1\n" + strings.Repeat("0 1 -> 5 1\n", 12), "0|1", []string{
			"a.pds:3: shared state 5 out of range 0..1",
			"a.pds:4: shared state 5 out of range 0..1",
			"a.pds:5: shared state 5 out of range 0..1",
			"a.pds:6: shared state 5 out of range 0..1",
			"a.pds:7: shared state 5 out of range 0..1",
			"a.pds:8: shared state 5 out of range 0..1",
			"a.pds:9: shared state 5 out of range 0..1",
			"a.pds:10: shared state 5 out of range 0..1",
			"a.pds:11: shared state 5 out of range 0..1",
			"a.pds:12: shared state 5 out of range 0..1",
			"a.pds:13: too many errors"}},
		{"symbol tables too large", "2\n" + strings.Repeat("PDA 0 1\n0 1000000 -> 0 -\n", 5), "0|1,1,1,1,1", []string{
			"a.pds:10: thread 4: stack symbols up to 1000000: the symbols of all threads, numbered densely, exceed 4194304"}},
		// .init
		{"empty init", ok, "", []string{
			`a.init:1: empty file: want "q|w0,w1,..." (shared state | stacks, bottom first, symbols separated by ".")`}},
		{"init comments only", ok, "# 0|1\n", []string{
			`a.init:1: empty file: want "q|w0,w1,..." (shared state | stacks, bottom first, symbols separated by ".")`}},
		{"init second line", ok, "0|1\n1|1\n", []string{
			`a.init:2: unexpected second line: the file holds one configuration "q|w0,w1,..." (shared state | stacks, bottom first, symbols separated by ".")`}},
		{"init without bar", ok, "0,1", []string{
			`a.init:1: malformed configuration "0,1": want "q|w0,w1,..." (shared state | stacks, bottom first, symbols separated by ".")`}},
		{"init with two bars", ok, "0|1|1", []string{
			`a.init:1: malformed configuration "0|1|1": want "q|w0,w1,..." (shared state | stacks, bottom first, symbols separated by ".")`}},
		{"init state out of range", ok, "2|1", []string{
			"a.init:1: initial shared state 2 out of range 0..1"}},
		{"init missing state", ok, "|1", []string{
			`a.init:1: initial shared state: want a number, got ""`}},
		{"init bad symbols", ok, "0|1.x.-2..3", []string{
			`a.init:1: thread 0: stack symbol: want a number, got "x"`,
			`a.init:1: thread 0: stack symbol: negative number -2`,
			`a.init:1: thread 0: stack symbol: want a number, got ""`}},
		{"init too many stacks", ok, "0|1,1", []string{
			"a.init:1: 2 initial stacks, but a.pds has 1 thread (PDA blocks)"}},
		{"init too few stacks", "2\nPDA 0 1\nPDA 0 1\nPDA 0 1\n", "0|1,1", []string{
			"a.init:1: 2 initial stacks, but a.pds has 3 threads (PDA blocks)"}},
		{"errors in both files", "2\nPDA 0 1\n0 1 -> 2 1\n", "3|1", []string{
			"a.pds:3: shared state 2 out of range 0..1",
			"a.init:1: initial shared state 3 out of range 0..1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := cuba.Read("a.pds", []byte(tc.pds), "a.init", []byte(tc.init), testOpts)
			require.Error(t, err)
			require.Nil(t, in)
			var list cuba.ErrorList
			require.True(t, errors.As(err, &list), "got %T, want an ErrorList", err)
			require.LessOrEqual(t, len(list), cuba.MaxErrors+1)
			require.Equal(t, strings.Join(tc.want, "\n"), err.Error())
		})
	}
}

func TestParsePDSPartial(t *testing.T) {
	sys, err := cuba.ParsePDS("a.pds", []byte("3\nPDA 0 1\n0 0 -> 1 1 2\n0 9 -> 7 1\n1 1 -> 2 -\n"))
	require.EqualError(t, err, "a.pds:4: shared state 7 out of range 0..2")
	require.Equal(t, 3, sys.States)
	require.Len(t, sys.Blocks, 1)
	var rules []string
	for _, r := range sys.Blocks[0].Rules {
		rules = append(rules, r.Pos.String()+" "+r.String())
	}
	require.Equal(t, []string{"a.pds:3 0 0 -> 1 1 2", "a.pds:5 1 1 -> 2 -"}, rules)
}

func TestTarget(t *testing.T) {
	in := read(t, twoThreads, "0|0,6.5")
	tests := []struct {
		name, spec  string
		str         string // the target printed
		shared      uint64
		tops        []*pds.Label
		unreachable bool
		err         string
	}{
		{name: "tops", spec: "2|1,6", str: "2|1,6", shared: 2, tops: []*pds.Label{in.Symbols[0][1], in.Symbols[1][6]}},
		{name: "empty stacks", spec: " 1 | - , ", str: "1|-,-", shared: 1, tops: []*pds.Label{nil, nil}},
		{name: "symbol only in the target", spec: "0|3,5", str: "0|3,5", tops: []*pds.Label{nil, in.Symbols[1][5]}, unreachable: true},
		{name: "symbol of the other thread", spec: "0|6,0", str: "0|6,0", tops: []*pds.Label{nil, nil}, unreachable: true},
		{name: "too few threads", spec: "0|1", err: "target gives 1 top symbol, but the system has 2 threads"},
		{name: "too many threads", spec: "0|1,1,1", err: "target gives 3 top symbols, but the system has 2 threads"},
		{name: "state out of range", spec: "3|1,6", err: "target shared state 3 out of range 0..2"},
		{name: "a stack", spec: "0|0.1,6", err: `thread 0: "0.1" is a stack: a target gives only the top symbol`},
		{name: "bad symbol", spec: "0|x,6", err: `thread 0: stack symbol: want a number, got "x"`},
		{name: "malformed", spec: "0", err: `malformed configuration "0": want "q|t0,t1,..." (shared state | top symbols, "-" for an empty stack)`},
		{name: "empty", spec: "", err: `empty file: want "q|t0,t1,..." (shared state | top symbols, "-" for an empty stack)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, file := range []bool{true, false} {
				var tg *cuba.Target
				var err error
				prefix := "target: "
				if file {
					tg, err = cuba.ParseTarget("a.spec", []byte("# target\n"+tc.spec+"\r\n"), in)
					prefix = "a.spec:2: "
					if tc.spec == "" {
						prefix = "a.spec:1: "
					}
				} else {
					tg, err = cuba.ParseTargetString(tc.spec, in)
				}
				if tc.err != "" {
					require.EqualError(t, err, prefix+tc.err)
					require.Nil(t, tg)
					continue
				}
				require.NoError(t, err)
				require.Equal(t, tc.shared, tg.Shared)
				require.Equal(t, tc.tops, tg.Tops)
				require.Equal(t, tc.unreachable, tg.Unreachable)
				require.Equal(t, tc.str, tg.String())
				if file {
					require.Equal(t, pds.Pos{File: "a.spec", Line: 2}, tg.Pos)
				}
			}
		})
	}
}

func TestReadFilesMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.pds")
	_, err := cuba.ReadFiles(missing, missing+".init", testOpts)
	require.ErrorContains(t, err, "cuba: open "+missing)
}
