package states_test

import (
	"fmt"
	"os"
	"sort"

	"github.com/cbreach/cbreach/cbr"
)

// sites lists a result's violations as label@contexts, sorted.
func sites(r *cbr.Result) []string {
	var s []string
	for _, v := range r.Violations {
		name := v.Message
		if v.Label != nil {
			name = v.Label.Name
		}
		s = append(s, fmt.Sprintf("%s@%d", name, v.Contexts))
	}
	sort.Strings(s)
	return s
}

func readFile(file string) ([]byte, error) { return os.ReadFile(file) }
