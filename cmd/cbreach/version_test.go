package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestVersionLine: --version's line from what a binary may record of its
// build.
func TestVersionLine(t *testing.T) {
	vcs := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261129104107-4f1c0a1b2c3d+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "4f1c0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"},
				{Key: "vcs.time", Value: "2026-11-29T10:41:07Z"}, {Key: "vcs.modified", Value: modified}}}
	}
	kernel := "; BDDs: rudd fork, " + strings.Split(versionLine(nil), "BDDs: rudd fork, ")[1]
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{vcs("false"), "cbreach " + version + " (commit 4f1c0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b, 2026-11-29T10:41:07Z; go1.26.8" + kernel},
		{vcs("true"), "cbreach " + version + " (commit 4f1c0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b, modified, 2026-11-29T10:41:07Z; go1.26.8" + kernel},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261129104107-4f1c0a1b2c3d"}},
			"cbreach " + version + " (module v0.0.0-20261129104107-4f1c0a1b2c3d; go1.26.8" + kernel},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, "cbreach " + version + " (commit unknown; go1.26.8" + kernel},
		{nil, "cbreach " + version + " (commit unknown; go version unknown" + kernel},
	} {
		require.Equal(t, tc.want, versionLine(tc.bi))
	}
}

// TestVersionBuild builds cbreach with go build in a git checkout of its
// own (a copy of the packages it needs, committed in a temporary
// repository): --version names the commit, then "modified" once the tree
// has a change; built with -buildvcs=false, it says "commit unknown".
// The test binary itself records no commit: --version still answers.
func TestVersionBuild(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	dir := t.TempDir()
	copyModule(t, gobin, dir)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "cbreach")
	rev := git("rev-parse", "HEAD")
	versionOf := func(buildvcs string) string {
		bin := filepath.Join(t.TempDir(), "cbreach")
		cmd := exec.Command(gobin, "build", "-trimpath", "-buildvcs="+buildvcs, "-o", bin, "./cmd/cbreach")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go build: %s", out)
		out, err = exec.Command(bin, "--version").Output()
		require.NoError(t, err)
		require.Equal(t, 1, strings.Count(string(out), "\n"), "one line: %q", out)
		return strings.TrimSpace(string(out))
	}
	kernel := `; go1\.[0-9.a-z]+; BDDs: rudd fork, \w+ node table\)$`
	require.Regexp(t, regexp.MustCompile(`^cbreach `+regexp.QuoteMeta(version)+` \(commit `+rev+`, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`+kernel), versionOf("true"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "NOTES"), []byte("a change\n"), 0o644))
	require.Regexp(t, regexp.MustCompile(`^cbreach `+regexp.QuoteMeta(version)+` \(commit `+rev+`, modified, \d{4}-`), versionOf("true"))
	require.Regexp(t, regexp.MustCompile(`^cbreach `+regexp.QuoteMeta(version)+` \(commit unknown`+kernel), versionOf("false"))
	require.Contains(t, versionLine(buildInfo()), "cbreach "+version+" (")
}

// copyModule copies go.mod, go.sum and the non-test Go files of the
// module's packages that cmd/cbreach imports into dir.
func copyModule(t *testing.T, gobin, dir string) {
	t.Helper()
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", ".").Output()
	require.NoError(t, err)
	root, err := exec.Command(gobin, "list", "-m", "-f", "{{.Dir}}").Output()
	require.NoError(t, err)
	modRoot := strings.TrimSpace(string(root))
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(modRoot, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	for _, pkg := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(modRoot, pkg)
		require.NoError(t, err)
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, rel), 0o755))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, rel, filepath.Base(f)), b, 0o644))
		}
	}
}
