package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/cbreach/cbreach/bdd"
)

// version is the release of the command.
const version = "0.2.0"

// versionLine is what --version prints, one line naming the binary for a
// bug report or a benchmark's tool information: the release, then what
// the binary records of its build (runtime/debug.ReadBuildInfo, nil when
// it records nothing):
//
//	cbreach 0.2.0 (commit 4f1c…2e, modified, 2026-11-29T10:41:07Z; go1.26.8; BDDs: rudd fork, buddy node table)
//	cbreach 0.2.0 (module v0.0.0-20261129104107-4f1c0a1b2c3d; go1.26.8; BDDs: rudd fork, buddy node table)
//	cbreach 0.2.0 (commit unknown; go1.26.8; BDDs: rudd fork, buddy node table)
//
// The commit is the whole hash of the checkout go build ran in, with
// "modified" when its tree had changes, and the commit's time. Without
// one, the version of the module, as go install module@version records
// it; without either (go run, go test, -buildvcs=false, a build outside
// a git checkout or in a git worktree, which Go does not read), "commit
// unknown".
func versionLine(bi *debug.BuildInfo) string {
	var parts []string
	settings := map[string]string{}
	goVersion := "go version unknown"
	if bi != nil {
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		goVersion = bi.GoVersion
	}
	switch rev := settings["vcs.revision"]; {
	case rev != "":
		c := "commit " + rev
		if settings["vcs.modified"] == "true" {
			c += ", modified"
		}
		if t := settings["vcs.time"]; t != "" {
			c += ", " + t
		}
		parts = append(parts, c)
	case bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)":
		parts = append(parts, "module "+bi.Main.Version)
	default:
		parts = append(parts, "commit unknown")
	}
	parts = append(parts, goVersion, fmt.Sprintf("BDDs: rudd fork, %s node table", bdd.Kernel))
	return fmt.Sprintf("cbreach %s (%s)", version, strings.Join(parts, "; "))
}

// buildInfo is the binary's record of its build, or nil.
func buildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}
