package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/benchmarks"
)

func TestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.pds")
	for _, c := range []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{[]string{"--family", "A", "-n", "4", "-w", "3", "--variant", "viol"}, 0, "assert(g1 == g2);"},
		{[]string{"--family", "C", "-n", "2000", "-w", "32", "-o", file}, 0, ""},
		{[]string{"--family", "B", "--variant", "viol"}, 2, "no \"viol\" variant"},
		{[]string{"-n", "5"}, 2, "even number"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"--no-such-flag"}, 2, "unknown flag"},
		{[]string{"-h"}, 0, "--family"},
		{[]string{"-o", filepath.Join(file, "sub", "x.pds")}, 1, "genvars:"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) {
			t.Errorf("genvars %q: got status %d and\n%s%s\nwant status %d and %q", c.args, code, stdout.String(), stderr.String(), c.code, c.out)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := benchmarks.VarsModel(benchmarks.VarsC, benchmarks.VarsSafe, 2000, 32)
	if string(got) != want {
		t.Errorf("-o %s: got text different from VarsModel(C, safe, 2000, 32)", file)
	}
}
