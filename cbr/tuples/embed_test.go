package tuples_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEmbedding builds and runs testdata/embed, a module of its own that
// uses cbreach as a library (compiler, analysis, a target, a typed limit,
// the network used again after it), as an embedding verifier would.
func TestEmbedding(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := filepath.Join("testdata", "embed")
	cmd := exec.Command(gobin, "run", ".")
	cmd.Dir = dir
	// Offline: the module's dependencies are the main module's, already
	// in the module cache; go.sum is a copy of the main module's.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "compiled: violation 4\ntarget: 2\nlimit: unknown true\nagain: violation assert(a * b != 1001)\n", string(out))
}
