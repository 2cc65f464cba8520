package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "vector.svg")
	if err := os.WriteFile(stale, []byte("<svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{[]string{"--list"}, exitOK, "bluetooth-v2-a2s1/k5/lazy"},
		{[]string{"--list", "--set", "large"}, exitOK, "vector-java6-b16/k3/eager"},
		{[]string{"-h"}, exitOK, "Exit status"},
		{[]string{"--set", "huge"}, exitUsage, "unknown set"},
		{[]string{"--only", "("}, exitUsage, "--only"},
		{[]string{"--only", "no-such-model"}, exitUsage, "no experiment"},
		{[]string{"extra"}, exitUsage, "unexpected arguments"},
		{[]string{"--list", "--only", "vector-java5-b1"}, exitOK, "vector-java5-b1/k3/lazy"},
		{[]string{"--jobs", "0"}, exitUsage, "--jobs: need at least 1"},
		{[]string{"--slurm", "--jobs", "2"}, exitUsage, "--jobs does not go with --slurm"},
		{[]string{"--slurm-partition", "debug"}, exitUsage, "go with --slurm"},
		{[]string{"--engines", "--jobs", "2"}, exitUsage, "--engines runs in this process"},
		{[]string{"--only", "bluetooth-v1-a1s1/k3/lazy", "--cbreach", "/no/such/cbreach", "--out", dir}, exitUsage, "/no/such/cbreach: no such file"},
		{[]string{"--only", "bluetooth-v1-a1s1/k3/eager|bluetooth-v1-a1s1", "--out", dir}, exitOK, "0 mismatches"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) {
			t.Errorf("harness %q: exit %d, want %d, and output with %q:\n%s%s", c.args, code, c.code, c.out, stdout.String(), stderr.String())
		}
	}
	// --only matches whole names: b1, not b10 to b16.
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--list", "--set", "all", "--only", "vector-java5-b1"}, &stdout, &stderr); code != exitOK ||
		strings.Count(stdout.String(), "\n") != 2 || strings.Contains(stdout.String(), "b10") {
		t.Errorf("harness --list --set all --only vector-java5-b1: exit %d, want %d, and the 2 runs of b1:\n%s%s", code, exitOK, stdout.String(), stderr.String())
	}
	for _, f := range []string{"results.md", "results.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "vector.svg")); err == nil {
		t.Errorf("vector.svg kept or written without Vector runs")
	}
}

// TestEngines runs the engines experiment on one small point (the eager
// form cut off by a short time limit) and checks its files and report.
func TestEngines(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"--engines", "--only", "vector-java5-b1", "--timeout", "3s", "--out", dir}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("harness --engines: exit %d, want %d:\n%s%s", code, exitOK, stdout.String(), stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "engines.md"))
	if err != nil {
		t.Fatal(err)
	}
	// cbr finds Vector's violation with 3 contexts; seq within 2 rounds
	// (its 2 threads interleave 4 contexts there).
	for _, want := range []string{"| 1 | 3 | violation | 3 |", "cbr-lazy verdict", "seq-lazy verdict", "violation | 2 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("engines.md lacks %q:\n%s", want, md)
		}
	}
	for _, f := range []string{"engines.csv", "engines.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"--engines", "--list"}, exitOK, "bst-i2s1                 K=6"},
		{[]string{"--engines", "--only", "nothing"}, exitUsage, "no model"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), c.args, &stdout, &stderr); code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) {
			t.Errorf("harness %q: exit %d, want %d, and output with %q:\n%s%s", c.args, code, c.code, c.out, stdout.String(), stderr.String())
		}
	}
}
