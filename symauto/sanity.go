package symauto

import (
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/bdd"
)

// SanityChecks switches on the checks of Auto.Check at the end of every
// saturation and every relabelling (Tag, Restrict, Rebase,
// RestrictGlobals, Trim); a broken invariant panics with the offending
// transition. Tests switch it on (as go/ssa's sanity checker); it costs
// a walk over every label.
var SanityChecks = false

// Check reports a label that carries a copy its kind of transition may
// not carry (the table in doc.go): every label may carry Gs (a tagged
// view); otherwise
//
//	p -γ-> m      G, L, Ge, Le          the top frame with its entry values
//	p -γ-> s      G, L                  a bottom frame has no caller
//	m -γ-> m'     Gl, Ll, L, Ge, Le     a frame below, for a callee entered with (Gl, Ll)
//	m -γ-> s      Gl, Ll, L
//	i -γ-> q      L, Ge, Le             a frame of an initial stack below the top
//	p -ε-> m      G, R, Gl, Ll          a return, internal to saturation
//	p -ε-> s      G                     the thread has finished
//
// A label over fewer copies is fine (a constant, say).
func (a *Auto) Check() error {
	global := map[bdd.Var]bool{}
	for _, g := range a.sp.Net.Globals {
		global[g.Var] = true
	}
	var bad []string
	for _, t := range a.Transitions() {
		allowed := a.allowedCopies(t, global)
		for _, r := range a.sp.M.Support(a.labels[t]) {
			if !allowed(r) {
				bad = append(bad, fmt.Sprintf("%s -%s-> %s carries %s copy %d", a.stateString(t.From), labelName(t), a.stateString(t.To), a.sp.M.L.Name(r.Var), r.Copy))
				break
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("symauto: labels with copies their transitions may not carry:\n\t%s", strings.Join(bad, "\n\t"))
	}
	return nil
}

func labelName(t Trans) string {
	if t.Label == nil {
		return "ε"
	}
	return t.Label.Name
}

// allowedCopies returns the test of Check for the copies of t's label.
func (a *Auto) allowedCopies(t Trans, global map[bdd.Var]bool) func(bdd.Ref) bool {
	n := a.sp.Net
	var g, l []int
	ret := false
	switch {
	case t.Label == nil && t.To == Final:
		g = []int{GCur}
	case t.Label == nil:
		g, l, ret = []int{GCur, GLink}, []int{LLink}, true
	case t.From == Initial:
		g, l = []int{GCur}, []int{LCur}
		if t.To != Final {
			g, l = append(g, GEntry), append(l, LEntry)
		}
	case a.names[t.From].Init > 0:
		g, l = []int{GEntry}, []int{LCur, LEntry}
	default:
		g, l = []int{GLink}, []int{LLink, LCur}
		if t.To != Final {
			g, l = append(g, GEntry), append(l, LEntry)
		}
	}
	g = append(g, GStart)
	return func(r bdd.Ref) bool {
		switch {
		case r.Var == n.RetVar:
			return ret
		case global[r.Var]:
			return contains(g, r.Copy)
		}
		return contains(l, r.Copy)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// sane panics when SanityChecks is on and a fails Check; it returns a.
func (a *Auto) sane(op string) *Auto {
	if SanityChecks {
		if err := a.Check(); err != nil {
			panic(fmt.Sprintf("symauto: after %s: %v", op, err))
		}
	}
	return a
}
