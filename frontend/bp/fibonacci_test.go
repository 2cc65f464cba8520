package bp

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var writeFib = flag.Bool("write-fib", false, "write benchmarks/boolean/fib-*.bp from the generator fibonacci")

// fibonacci returns a Getafix-style program on two bits-wide unsigned
// globals a and b: init sets a = 1, b = 1 + x and turn = x for a
// nondeterministic bit x (a relation between the globals, not a product
// of initial values); thread add_a adds b to a bit by bit with a carry,
// thread add_b adds a to b, taking turns through the global turn (each
// context adds at most once); thread check, once a is complete (turn
// set), asserts a < bound (wrapping modulo 2^bits), or, with bound 0,
// that a and b are not both even (an invariant: the parities evolve by an
// invertible map from a nonzero pair).
func fibonacci(bits int, bound uint64) string {
	var b strings.Builder
	vec := func(v string) []string {
		s := make([]string, bits)
		for i := range s {
			s[i] = fmt.Sprintf("%s%d", v, i)
		}
		return s
	}
	as, bs := vec("a"), vec("b")
	if bound == 0 {
		fmt.Fprintf(&b, "// Fibonacci-like additions on %d-bit vectors: a and b are never both even.\n", bits)
	} else {
		fmt.Fprintf(&b, "// Fibonacci-like additions on %d-bit vectors: does a reach %d?\n", bits, bound)
	}
	fmt.Fprintf(&b, "decl %s;\ndecl %s;\ndecl turn;\n\n", strings.Join(as, ", "), strings.Join(bs, ", "))
	// init: a = 1, b = 1 + x, and add_b first when x.
	b.WriteString("void init() begin\n  decl x;\n  x := *;\n")
	zero := func(n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = "0"
		}
		return s
	}
	aInit := append([]string{"1"}, zero(bits-1)...)
	bInit := append([]string{"!x", "x"}, zero(bits-2)...)
	fmt.Fprintf(&b, "  %s := %s;\n", strings.Join(as, ", "), strings.Join(aInit, ", "))
	fmt.Fprintf(&b, "  %s := %s;\n", strings.Join(bs, ", "), strings.Join(bInit, ", "))
	b.WriteString("  turn := x;\nend\n\n")
	adder := func(name string, dst, src []string, wait, next string) {
		fmt.Fprintf(&b, "// %s := %s + %s, one bit at a time.\n", dst[0][:1], dst[0][:1], src[0][:1])
		fmt.Fprintf(&b, "void %s() begin\n  decl c;\n  while T do\n    assume(%s);\n    c := 0;\n", name, wait)
		for i := range bits {
			d, s := dst[i], src[i]
			fmt.Fprintf(&b, "    %s, c := %s ^ %s ^ c, (%s & %s) | (c & (%s ^ %s));\n", d, d, s, d, s, d, s)
		}
		fmt.Fprintf(&b, "    turn := %s;\n  od\nend\n\n", next)
	}
	adder("add_a", as, bs, "!turn", "1")
	adder("add_b", bs, as, "turn", "0")
	b.WriteString("void check() begin\n  assume(turn);\n")
	if bound == 0 {
		b.WriteString("  assert(a0 | b0);\nend\n")
		return b.String()
	}
	// a >= bound, built from the least significant bit up, so that the
	// most significant bit is the outermost test.
	ge := "T"
	for i := 0; i < bits; i++ {
		a := fmt.Sprintf("a%d", i)
		switch {
		case bound>>i&1 == 1 && ge == "T":
			ge = a
		case bound>>i&1 == 1:
			ge = fmt.Sprintf("(%s & %s)", a, ge)
		case ge != "T":
			ge = fmt.Sprintf("(%s | %s)", a, ge)
		}
	}
	fmt.Fprintf(&b, "  assert(!%s);\nend\n", ge)
	return b.String()
}

// fibFiles are the Getafix-style programs of benchmarks/boolean: bits and
// bound (0: the safe invariant).
var fibFiles = []struct {
	bits  int
	bound uint64
}{{4, 14}, {8, 34}, {8, 0}, {16, 123}}

func fibName(bits int, bound uint64) string {
	if bound == 0 {
		return fmt.Sprintf("fib%d-safe.bp", bits)
	}
	return fmt.Sprintf("fib%d-%d.bp", bits, bound)
}

// TestFibonacciFiles checks that the fib*.bp files of benchmarks/boolean
// are the generator's output (their first line, EXPECTED, aside); with
// -write-fib it writes them, keeping an existing EXPECTED line.
func TestFibonacciFiles(t *testing.T) {
	for _, f := range fibFiles {
		name := "../../benchmarks/boolean/" + fibName(f.bits, f.bound)
		src, err := os.ReadFile(name)
		if *writeFib {
			head := "// EXPECTED: unknown\n"
			if err == nil {
				h, _, _ := strings.Cut(string(src), "\n")
				head = h + "\n"
			}
			if err := os.WriteFile(name, []byte(head+fibonacci(f.bits, f.bound)), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		_, body, _ := strings.Cut(string(src), "\n")
		if body != fibonacci(f.bits, f.bound) {
			t.Errorf("%s is not fibonacci(%d, %d)", name, f.bits, f.bound)
		}
	}
}
