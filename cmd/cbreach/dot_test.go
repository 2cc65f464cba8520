package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// dotGraph is what the structure tests read of one digraph of --dot.
type dotGraph struct {
	name     string
	clusters map[string]bool   // the clusters' names
	nodes    map[string]string // each declared node, to its cluster ("" at the top)
	labels   map[string]string // each declared node's label, as written
	edges    []dotEdge
}

type dotEdge struct {
	from, to string
	invis    bool
}

// dotToken is one token of the DOT language: an identifier or number, a
// quoted string (unquoted), an HTML-like label (without its outer angle
// brackets), or punctuation.
type dotToken struct {
	kind byte // 'i' identifier, 's' string, 'h' HTML, or the punctuation itself ('-' for ->)
	text string
}

// dotTokens splits DOT text into tokens, skipping comments; it fails on
// an unterminated string or HTML label.
func dotTokens(t *testing.T, s string) []dotToken {
	t.Helper()
	var out []dotToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					b.WriteByte(s[j])
					j++
				}
				b.WriteByte(s[j])
			}
			require.Less(t, j, len(s), "an unterminated string at offset %d", i)
			out = append(out, dotToken{'s', b.String()})
			i = j + 1
		case c == '<':
			depth, j := 0, i
			for ; j < len(s); j++ {
				if s[j] == '<' {
					depth++
				} else if s[j] == '>' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			require.Less(t, j, len(s), "an unterminated HTML label at offset %d", i)
			out = append(out, dotToken{'h', s[i+1 : j]})
			i = j + 1
		case strings.HasPrefix(s[i:], "->"):
			out = append(out, dotToken{'-', "->"})
			i += 2
		case strings.ContainsRune("{}[];=,", rune(c)):
			out = append(out, dotToken{c, string(c)})
			i++
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '.' || s[j] == '#' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			require.Greater(t, j, i, "an unexpected %q at offset %d", c, i)
			out = append(out, dotToken{'i', s[i:j]})
			i = j
		}
	}
	return out
}

// parseDot reads the digraphs of a --dot file: it requires balanced
// braces and that every statement is an attribute statement, a node, an
// edge chain, a subgraph or an anonymous one.
func parseDot(t *testing.T, text string) []*dotGraph {
	t.Helper()
	toks := dotTokens(t, text)
	var graphs []*dotGraph
	pos := 0
	next := func() dotToken {
		require.Less(t, pos, len(toks), "the DOT text ends early")
		pos++
		return toks[pos-1]
	}
	peek := func() byte {
		if pos < len(toks) {
			return toks[pos].kind
		}
		return 0
	}
	// attrs reads "[a=b, ...]" and returns them.
	attrs := func() map[string]string {
		out := map[string]string{}
		if peek() != '[' {
			return out
		}
		next()
		for peek() != ']' {
			k := next()
			require.Equal(t, byte('='), next().kind, "an attribute without a value")
			out[k.text] = next().text
			if peek() == ',' || peek() == ';' {
				next()
			}
		}
		next()
		return out
	}
	for pos < len(toks) {
		require.Equal(t, "digraph", next().text, "a file of digraphs")
		g := &dotGraph{clusters: map[string]bool{}, nodes: map[string]string{}, labels: map[string]string{}}
		g.name = next().text
		require.Equal(t, byte('{'), next().kind)
		clusters := []string{""} // the enclosing subgraphs, innermost last
		for len(clusters) > 0 {
			tok := next()
			switch {
			case tok.kind == '}':
				clusters = clusters[:len(clusters)-1]
			case tok.kind == ';':
			case tok.kind == '{':
				clusters = append(clusters, clusters[len(clusters)-1]) // anonymous: not a cluster
			case tok.text == "subgraph":
				name := next().text
				require.Equal(t, byte('{'), next().kind)
				if strings.HasPrefix(name, "cluster") {
					require.False(t, g.clusters[name], "cluster %s twice", name)
					g.clusters[name] = true
					clusters = append(clusters, name)
				} else {
					clusters = append(clusters, clusters[len(clusters)-1])
				}
			case tok.text == "graph" || tok.text == "node" || tok.text == "edge":
				attrs()
			case tok.kind == 'i' && peek() == '=': // rank=same
				next()
				next()
			case tok.kind == 'i' || tok.kind == 's':
				chain := []string{tok.text}
				for peek() == '-' {
					next()
					chain = append(chain, next().text)
				}
				a := attrs()
				if len(chain) == 1 {
					if _, ok := g.nodes[tok.text]; ok && len(a) == 0 {
						continue // named again in a rank=same subgraph
					}
					require.NotContains(t, g.nodes, tok.text, "node %s declared twice", tok.text)
					g.nodes[tok.text] = clusters[len(clusters)-1]
					g.labels[tok.text] = a["label"]
					continue
				}
				for i := 0; i+1 < len(chain); i++ {
					g.edges = append(g.edges, dotEdge{chain[i], chain[i+1], a["style"] == "invis"})
				}
			default:
				t.Fatalf("unexpected %q in digraph %s", tok.text, g.name)
			}
		}
		graphs = append(graphs, g)
	}
	return graphs
}

// hasEdge reports whether g has a visible edge from one node to another.
func (g *dotGraph) hasEdge(from, to string) bool {
	return slices.Contains(g.edges, dotEdge{from, to, false})
}

// contextLine reads a context of the compact text trace: its number, its
// thread and the globals after it.
var contextLine = regexp.MustCompile(`(?m)^  context (\d+): thread (\d+).*; then (.*)$`)

// violationLine reads a violation's thread in the text report.
var violationLine = regexp.MustCompile(`(?m)^VIOLATION .* in thread (\d+) `)

// checkChart checks one digraph against the text trace of the same
// violation (report, the lines of one VIOLATION): lanes clusters, among
// them one for each thread that runs or has the violation, each headed
// by its thread; a box per context in its thread's lane with the globals
// after it; arrows from the initial note through every context to the
// violation, which sits in its thread's lane. (Every model of these
// tests has 3 threads, which the initial configuration shows or which
// run.)
func checkChart(t *testing.T, g *dotGraph, report string, lanes int) {
	t.Helper()
	ctxs := contextLine.FindAllStringSubmatch(report, -1)
	require.NotEmpty(t, ctxs, "no context in the text trace:\n%s", report)
	threads := map[string]bool{}
	prev := "init"
	for i, m := range ctxs {
		require.Equal(t, strconv.Itoa(i+1), m[1])
		box := "c" + m[1]
		threads[m[2]] = true
		require.Equal(t, "cluster_t"+m[2], g.nodes[box], "context %s lies in its thread's lane", m[1])
		require.Contains(t, g.labels[box], "<b>context "+m[1]+"</b>: thread "+m[2])
		require.Contains(t, g.labels[box], "then "+m[3], "the globals after context %s", m[1])
		require.True(t, g.hasEdge(prev, box), "an arrow %s -> %s", prev, box)
		prev = box
	}
	require.True(t, g.hasEdge(prev, "violation"), "an arrow from the last context to the violation")
	v := violationLine.FindStringSubmatch(report)
	require.NotNil(t, v)
	threads[v[1]] = true
	require.Equal(t, "cluster_t"+v[1], g.nodes["violation"], "the violation lies in its thread's lane")
	require.Contains(t, g.labels["violation"], "VIOLATION")

	boxes, lanes := 0, 0
	for n, cl := range g.nodes {
		if regexp.MustCompile(`^c\d+$`).MatchString(n) {
			boxes++
		}
		if regexp.MustCompile(`^t\d+$`).MatchString(n) {
			lanes++
			require.Equal(t, "cluster_"+n, cl, "lane head %s in its lane", n)
		}
	}
	require.Equal(t, len(ctxs), boxes, "one box per context")
	require.Equal(t, len(g.clusters), lanes, "one head per lane")
	for th := range threads {
		require.True(t, g.clusters["cluster_t"+th], "a lane for thread %s", th)
	}
	require.Len(t, g.clusters, lanes, "a lane per thread of the trace")
}

// renderDot renders a --dot file with Graphviz when dot is on PATH.
func renderDot(t *testing.T, file string) {
	t.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Logf("Graphviz's dot is not on PATH: %s was checked for structure only, not rendered", file)
		return
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "-Tsvg", "-o", os.DevNull, file)
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), "dot -Tsvg %s: %s", file, stderr.String())
	require.Empty(t, stderr.String(), "dot's warnings")
}

// TestDot: --dot writes the first violation's chart, for every engine,
// and the same run gives the same bytes.
func TestDot(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	lost := filepath.Join("..", "..", "examples", "lostupdate.pds")
	cases := [][]string{
		{"--engine", "cbr", "-k", "5", bt},
		{"--engine", "explicit", "-k", "5", bt},
		{"--engine", "seq", "-k", "3", bt},
		{"--engine", "cbr", lost},
		{"--engine", "explicit", lost},
		{"--engine", "seq", "-k", "2", lost},
		{"--engine", "cbr", "--count", "preemptions", "-k", "1", filepath.Join("testdata", "handover.pds")},
		{"--engine", "cbr", "-k", "4", filepath.Join("testdata", "startloop.pds")},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var first string
			for i := range 2 {
				file := filepath.Join(t.TempDir(), "chart.dot")
				var out, errb bytes.Buffer
				code := run(context.Background(), append([]string{"--dot", file}, args...), &out, &errb, false)
				require.Equal(t, exitViolation, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
				require.Empty(t, errb.String())
				b, err := os.ReadFile(file)
				require.NoError(t, err)
				if i == 1 {
					require.Equal(t, first, string(b), "two runs, two charts")
					break
				}
				first = string(b)
				graphs := parseDot(t, first)
				require.Len(t, graphs, 1)
				require.Equal(t, "violation 1", graphs[0].name)
				checkChart(t, graphs[0], out.String(), 3)
				renderDot(t, file)
			}
		})
	}
}

// multi is a program with two violation sites, 1 and 2 contexts deep.
const multi = `int<2> x;
proc a() {
  x = 1;
  assert(x != 1);
}
proc b() {
  assert(x != 2);
}
proc c() {
  x = 2;
}
start a();
start b();
start c();
`

// TestDotAll: with --all, each violation's chart is a digraph of its own,
// in the order of the report.
func TestDotAll(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "multi.pds")
	require.NoError(t, os.WriteFile(src, []byte(multi), 0o644))
	for _, engine := range []string{"cbr", "explicit", "seq"} {
		t.Run(engine, func(t *testing.T) {
			file := filepath.Join(dir, engine+".dot")
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"--all", "--engine", engine, "-k", "2", "--dot", file, src}, &out, &errb, false)
			require.Equal(t, exitViolation, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			graphs := parseDot(t, string(b))
			reports := strings.Split(out.String(), "VIOLATION ")[1:]
			require.Len(t, reports, 2, out.String())
			require.Len(t, graphs, len(reports))
			for i, g := range graphs {
				require.Equal(t, fmt.Sprintf("violation %d", i+1), g.name)
				checkChart(t, g, "VIOLATION "+reports[i], 3)
			}
			renderDot(t, file)
		})
	}
}

// TestDotStdout: --dot - writes the chart to standard output, and the
// report to standard error.
func TestDotStdout(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--dot", "-", filepath.Join("..", "..", "examples", "lostupdate.pds")}, &out, &errb, false)
	require.Equal(t, exitViolation, code, errb.String())
	require.True(t, strings.HasPrefix(errb.String(), "VIOLATION "), errb.String())
	graphs := parseDot(t, out.String())
	require.Len(t, graphs, 1)
	checkChart(t, graphs[0], errb.String(), 3)
}

// TestDotNoViolation: with nothing to draw the file holds an empty graph
// with a comment that says why, and a note on standard error says so; a
// chart of an earlier run is not left behind.
func TestDotNoViolation(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	cases := []struct {
		args []string
		exit int
		why  string
	}{
		{[]string{"-k", "4", bt}, exitSafe, "no violation"},
		{[]string{"--engine", "explicit", "-k", "4", bt}, exitSafe, "no violation"},
		{[]string{"--engine", "explicit", "--max-depth", "5", filepath.Join("testdata", "deep.pds")}, exitUnknown,
			"no violation (the verdict is unknown: stack depth limit of 5 frames reached: deeper calls were not explored)"},
		{[]string{"--timeout", "1ns", "-k", "5", bt}, exitUnknown, "nothing was analysed"}, // cut off while compiling
		{[]string{filepath.Join("testdata", "bad.pds")}, exitUsage, "nothing was analysed"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "chart.dot")
			require.NoError(t, os.WriteFile(file, []byte("digraph old { a -> b; }\n"), 0o644))
			var out, errb bytes.Buffer
			code := run(context.Background(), append([]string{"--dot", file}, tc.args...), &out, &errb, false)
			require.Equal(t, tc.exit, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			require.Equal(t, "// cbreach: "+tc.why+", so there is no chart\ndigraph \"no violation\" {\n}\n", string(b))
			require.True(t, strings.HasSuffix(errb.String(), "cbreach: --dot: "+tc.why+"; "+file+" holds an empty graph\n"), errb.String())
			graphs := parseDot(t, string(b))
			require.Len(t, graphs, 1)
			require.Empty(t, graphs[0].nodes)
			renderDot(t, file)
		})
	}
}

// TestDotUsage: --dot without a file it can write, or with a flag it
// does not go with, is a usage error (exit 2) that names the problem,
// before any analysis.
func TestDotUsage(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	file := filepath.Join(t.TempDir(), "chart.dot")
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "chart.dot")
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--dot"}, "flag needs an argument: --dot"},
		{[]string{"--dot", "", bt}, "--dot: need a file name (or - for standard output)"},
		{[]string{"--dot", missing, bt}, "--dot: cannot write " + missing + ": no such file or directory"},
		{[]string{"--dot", t.TempDir(), bt}, "--dot: cannot write"},
		{[]string{"--dot", file, "--no-trace", bt}, "--dot draws a violation's trace: it does not go with --no-trace"},
		{[]string{"--dot", file, "--print-rules", bt}, "--dot draws the trace of an analysis: it does not go with --print-rules"},
		{[]string{"--dot", "-", "--json", bt}, "--dot - and --json both write to standard output: give --dot a file"},
		{[]string{"--dot", file, "--self-check", bt}, "--dot does not go with --self-check"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tc.args, &out, &errb, false)
			require.Equal(t, exitUsage, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			require.Contains(t, errb.String(), tc.msg)
			require.NotContains(t, out.String(), "VIOLATION", "no analysis")
		})
	}
	_, err := os.Stat(file)
	require.True(t, os.IsNotExist(err), "a refused run writes no file")
}
