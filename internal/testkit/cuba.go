package testkit

import (
	"os"
	"path/filepath"
)

// CUBASuite returns the folder of CUBA's pldi18 suite (the systems of
// github.com/lpzun/cuba, benchmarks/pldi18.bm), or "" when there is
// none: the folder CBREACH_CUBA_SUITE names, else the project's shared
// working folder beside the module (root is the module's root, relative
// to the test). The tests on the suite skip without it.
func CUBASuite(root string) string {
	dirs := []string{filepath.Join(root, "..", "shared", "benchmarks", "cuba-pldi18")}
	if env := os.Getenv("CBREACH_CUBA_SUITE"); env != "" {
		dirs = []string{env}
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return ""
}

// SVConcurrency returns the folder of the SV-COMP ConcurrencySafety
// development set (sv-benchmarks' c/pthread-* tasks, with its README.md
// and MANIFEST.tsv), or "" when there is none: the folder
// CBREACH_SV_CONCURRENCY names, else the project's shared working folder
// beside the module (root is the module's root, relative to the test).
func SVConcurrency(root string) string {
	dirs := []string{filepath.Join(root, "..", "shared", "benchmarks", "sv-concurrency")}
	if env := os.Getenv("CBREACH_SV_CONCURRENCY"); env != "" {
		dirs = []string{env}
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "MANIFEST.tsv")); err == nil {
			return d
		}
	}
	return ""
}
