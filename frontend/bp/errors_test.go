package bp

import (
	"errors"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/pds"
)

// Every refused construct and every class of error, with the position and
// the text of the first error.
var errorCases = []struct {
	name, src, want string
}{
	{"no-proc", "decl g;", "e.bp:1:1: the program has no procedure"},
	{"no-main", "void f() begin skip; end", "e.bp:1:6: the program has no procedure main"},
	{"bool-n-var", "decl x<2>;\nvoid main() begin skip; end", "e.bp:1:7: variables of type bool<n> are not supported"},
	{"enforce", "void main() begin\nenforce T;\nskip; end", "e.bp:2:1: enforce is not supported"},
	{"print", "void main() begin\n  print(T);\nend", "e.bp:2:3: print is not supported"},
	{"start-proc", "void main() begin\n  start_thread main();\nend", "e.bp:2:16: expected \"goto\""},
	{"start-two", "void main() begin\n  start_thread goto A, B;\nA: B: skip;\nend", "e.bp:2:24: start_thread goto takes one label"},
	{"const-2", "decl g;\nvoid main() begin\n  g := 2;\nend", "e.bp:3:8: a Boolean constant is 0 or 1, not 2"},
	{"call-in-expr", "decl g;\nbool f() begin return T; end\nvoid main() begin\n  g := !f();\nend", "e.bp:4:10: a call is allowed only as a statement"},
	{"prime-outside", "decl g;\nvoid main() begin\n  assume('g);\nend", "e.bp:3:10: 'g is allowed only in a constrain clause"},
	{"undeclared", "void main() begin\n  x := T;\nend", "e.bp:2:3: undeclared variable x"},
	{"undeclared-proc", "void main() begin\n  f();\nend", "e.bp:2:3: undeclared procedure f"},
	{"arity", "void f(a) begin skip; end\nvoid main() begin\n  f();\nend", "e.bp:3:3: f takes 1 argument, not 0"},
	{"results", "decl x, y;\nbool f() begin return T; end\nvoid main() begin\n  x, y := f();\nend", "e.bp:4:11: f returns 1 value, not 2"},
	{"return-count", "bool<2> f() begin\n  return T;\nend\nvoid main() begin skip; end", "e.bp:2:3: f returns 2 values, not 1"},
	{"assign-count", "decl x, y;\nvoid main() begin\n  x, y := T;\nend", "e.bp:3:3: 2 variables assigned 1 value"},
	{"assign-twice", "decl x;\nvoid main() begin\n  x, x := T, F;\nend", "e.bp:3:6: x is assigned twice in one statement"},
	{"label", "void main() begin\n  goto L;\nend", "e.bp:2:8: label L is not defined in main"},
	{"label-twice", "void main() begin\nL: skip;\nL: skip;\nend", "e.bp:3:1: label L is defined twice in main"},
	{"global-twice", "decl g, g;\nvoid main() begin skip; end", "e.bp:1:9: global g is declared twice"},
	{"proc-twice", "void main() begin skip; end\nvoid main() begin skip; end", "e.bp:2:6: procedure main is declared twice"},
	{"main-params", "void main(a) begin skip; end", "e.bp:1:6: main takes no parameters"},
	{"decl-late", "void main() begin skip; end\ndecl g;", "e.bp:2:1: global declarations must come before the first procedure"},
	{"bad-char", "void main() begin\n  skip; %\nend", "e.bp:2:9: unexpected character \"%\""},
	{"comment", "void main() begin skip; end /* open", "e.bp:1:29: comment is not terminated"},
	{"init-value", "decl g := !T;\nvoid main() begin skip; end", "e.bp:1:11: an initial value is 0, 1, T, F or *"},
	{"getafix-call-init", "void init() begin skip; end\nvoid t() begin\n  init();\nend", "e.bp:3:3: init is run once, first, and cannot be called"},
	{"getafix-init-starts", "void init() begin start_thread goto L; L: skip; end\nvoid t() begin skip; end", "e.bp:1:19: start_thread in init, which init runs: init runs to its end before any thread starts"},
	{"getafix-init-calls-start", "void init() begin t(); end\nvoid t() begin\n  start_thread goto L; L: skip;\nend", "e.bp:3:3: start_thread in t, which init runs: init runs to its end before any thread starts"},
	{"getafix-thread-params", "void init() begin skip; end\nvoid t(a) begin skip; end", "e.bp:2:6: t is a thread of Getafix's dialect and takes no parameters"},
	{"deep", "void main() begin assume(" + strings.Repeat("(", 2000) + "T" + strings.Repeat(")", 2000) + "); end", "expression nested too deeply"},
	{"too-many", "void main() begin\n" + strings.Repeat("x := T;\n", 30) + "end", "too many errors (20 more)"},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("e.bp", []byte(tc.src), pds.Options{})
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			if len(list) > MaxErrors+1 {
				t.Errorf("got %d errors", len(list))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want %q", err.Error(), tc.want)
			}
		})
	}
}

// The dialect's spellings: SATABS's names with $ and numeric labels,
// Getafix's braced names, T/F and 0/1, ~, && and ||, elsif, fi; and od;.
func TestSpellings(t *testing.T) {
	src := `decl c$$g, {a < b};
void main() begin
  decl l$;
  10: c$$g, {a < b}, l$ := T, 0, ~F;
  11: if c$$g && !{a < b} || F then skip; elsif 1 then skip; fi;
  12: while F do skip; od;
  13: dead l$;
  14: assert(c$$g = 1 & l$ != 0);
end
`
	n, err := Read("s.bp", []byte(src), pds.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fewest(t, n, 1); got != none {
		t.Errorf("got a violation with %d contexts, want none", got)
	}
}
