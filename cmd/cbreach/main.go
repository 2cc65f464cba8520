// Command cbreach checks a .pds model for errors reachable within a bound
// on the number of contexts.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "cbreach: the command line is not built yet")
	os.Exit(2)
}
