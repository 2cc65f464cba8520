package bp

import (
	"testing"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// none is fewest's answer when no error is reached within the bound.
const none = -1

// fewest returns the fewest contexts (up to k) that reach an error (0 for
// a failure inside Getafix's init), or none.
func fewest(t *testing.T, n *pds.Network, k int) int {
	t.Helper()
	res, err := explicit.Explore(n, explicit.Options{Contexts: k, MaxConfigs: 2000000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) == 0 {
		return none
	}
	return res.Violations[0].Contexts
}

var semanticCases = []struct {
	name string
	src  string
	k    int
	want int // fewest contexts to an error, none within k
}{
	{"assert-true", `void main() begin assert(T); end`, 2, none},
	{"assert-false", `void main() begin assert(F); end`, 2, 1},
	{"nondet", `decl g; void main() begin g := *; assert(g); end`, 2, 1},
	{"constrain", `decl g, h; void main() begin g, h := *, * constrain 'g != 'h; assert(g | h); end`, 2, none},
	{"constrain-prime-old", `decl g; void main() begin g := 0; g := * constrain 'g != g; assert(g); end`, 2, none},
	{"schoose", `decl g; void main() begin g := 1; g := schoose[g, !g]; assert(g); end`, 2, none},
	{"call-multi", `
decl a, b;
bool<2> f(x) begin return x, !x; end
void main() begin a, b := f(1); assert(a & !b); end`, 2, none},
	{"call-multi-bad", `
decl a, b;
bool<2> f(x) begin return x, !x; end
void main() begin a, b := f(1); assert(!a); end`, 2, 1},
	{"recursion", `
decl g;
void r(n) begin if n then r(F); g := 1; fi; end
void main() begin g := 0; r(1); assert(!g); end`, 2, 1},
	{"goto-choice", `
decl g;
void main() begin g := 0; goto A, B; A: g := 1; B: assert(!g); end`, 2, 1},
	{"while", `
decl g, h;
void main() begin g := 1; h := 0; while g do g := *; h := 1; od; assert(!h); end`, 2, 1},
	{"elsif", `
decl g, h;
void main() begin h := 0; g := 1; if !g then h := 1; elsif g then skip; else h := 1; fi assert(!h); end`, 2, none},
	{"thread-race", `
decl g;
void main() begin
  decl l;
  g := 0; l := 1;
  start_thread goto Th;
  assume(g); assert(F);
  Th: g := l;
end`, 3, 3},
	{"thread-copy-locals", `
decl g;
void main() begin
  decl l;
  g := 0; l := 1;
  start_thread goto Th;
  l := 0; goto E;
  Th: assert(!l);
  E: skip;
end`, 3, 2},
	{"atomic", `
decl g;
void main() begin
  g := 0;
  start_thread goto Th;
  atomic_begin; g := 1; g := 0; atomic_end;
  goto E;
  Th: assert(!g);
  E: skip;
end`, 4, none},
	{"no-atomic", `
decl g;
void main() begin
  g := 0;
  start_thread goto Th;
  g := 1; g := 0;
  goto E;
  Th: assert(!g);
  E: skip;
end`, 4, 2},
	{"end-thread", `
decl g;
void main() begin g := 0; end_thread; g := 1; assert(!g); end`, 2, none},
	{"getafix", `
decl super_atomic, atomic, x;
void init() begin super_atomic, atomic := F, F; x := F; end
void t1() begin atomic := F; x := F; end
void t2() begin atomic := F; if x then goto SLIC_ERROR; fi; assume(F); SLIC_ERROR: skip; end`, 4, none},
	{"getafix-bad", `
decl super_atomic, atomic, x;
void init() begin super_atomic, atomic := F, F; x := F; end
void t1() begin atomic := F; x := T; end
void t2() begin atomic := F; if x then goto SLIC_ERROR; fi; assume(F); SLIC_ERROR: skip; end`, 4, 2},
	{"getafix-init-fails", `
decl x, y;
void init() begin x := *; y := F; if x then goto SLIC_ERROR; fi; y := T; SLIC_ERROR: skip; end
void t1() begin assert(y); end`, 3, 0},
	{"getafix-init-nondet", `
decl x, y;
void init() begin x := *; y := !x; end
void t1() begin assert(x | y); assert(x); end`, 3, 1},
	{"getafix-init-call", `
decl x;
void init() begin x := T; f(); x := F; end
void f() begin assert(x); end`, 3, 1},
	{"getafix-init-call-fails", `
decl x;
void init() begin x := T; f(); x := F; f(); end
void f() begin assert(x); end`, 3, 0},
	{"getafix-atomic", `
decl super_atomic, atomic, x;
void init() begin super_atomic, atomic := F, F; x := F; end
void t1() begin atomic := F; atomic := T; x := T; x := F; atomic := F; end
void t2() begin atomic := F; if x then goto SLIC_ERROR; fi; assume(F); SLIC_ERROR: skip; end`, 5, none},
}

func TestSemantics(t *testing.T) {
	for _, tc := range semanticCases {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Read(tc.name+".bp", []byte(tc.src), pds.Options{MaxThreads: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := fewest(t, n, tc.k); got != tc.want {
				t.Errorf("got fewest contexts %d, want %d (%d: none within %d)", got, tc.want, none, tc.k)
			}
		})
	}
}
