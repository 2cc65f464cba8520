// Command genvars writes a program of issue 38's families with many open
// globals (benchmarks.VarsModel) to standard output or into a file:
//
//	go run ./benchmarks/cmd/genvars --family A -n 64 -w 32 --variant safe > a.pds
//	go run ./benchmarks/cmd/genvars --family C -n 2000 -w 32 --variant viol -o c.pds
//
// Exit status: 0 written, 2 usage (a family, size or width VarsModel
// refuses), 1 the file could not be written.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/cbreach/cbreach/benchmarks"
	"github.com/spf13/pflag"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("genvars", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(stderr)
	family := fs.String("family", "A", "the family: `A`, B or C (benchmarks.VarsModel)")
	n := fs.IntP("globals", "n", 8, "the number of globals, `N`")
	w := fs.IntP("width", "w", 8, "the width of each global in bits, `W` (1 to 32)")
	variant := fs.String("variant", "safe", "the assertion: `safe` (holds for every bound) or viol (fails with 3 contexts)")
	out := fs.StringP("out", "o", "", "write into `FILE` instead of standard output")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "genvars: %v\n", err)
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "genvars: unexpected arguments %q\n", fs.Args())
		return 2
	}
	src, err := benchmarks.VarsModel(benchmarks.VarsFamily(*family), benchmarks.VarsVariant(*variant), *n, *w)
	if err != nil {
		fmt.Fprintf(stderr, "genvars: %v\n", err)
		return 2
	}
	if *out == "" {
		if _, err := io.WriteString(stdout, src); err != nil {
			fmt.Fprintf(stderr, "genvars: %v\n", err)
			return 1
		}
		return 0
	}
	if err := os.WriteFile(*out, []byte(src), 0o644); err != nil {
		fmt.Fprintf(stderr, "genvars: %v\n", err)
		return 1
	}
	return 0
}
