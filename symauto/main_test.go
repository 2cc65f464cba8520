package symauto_test

import (
	"os"
	"testing"

	"github.com/cbreach/cbreach/symauto"
)

// TestMain switches the sanity checks on for every test of the package.
func TestMain(m *testing.M) {
	symauto.SanityChecks = true
	os.Exit(m.Run())
}
