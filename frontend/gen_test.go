package frontend

import (
	"fmt"
	"math/rand"
	"strings"
)

// A random generator of well-typed .pds programs covering the whole
// language, for the differential tests. Programs are small (a few bits of
// state, a few statements per procedure) so that both explicit explorations
// stay cheap.

type tkind int

const (
	tBool tkind = iota
	tInt
	tEnum
)

type gtype struct {
	kind tkind
	w    int // int width
	enum *genum
}

func (t gtype) String() string {
	switch t.kind {
	case tBool:
		return "bool"
	case tInt:
		return fmt.Sprintf("int<%d>", t.w)
	}
	return t.enum.name
}

func (t gtype) same(u gtype) bool {
	return t.kind == u.kind && (t.kind != tEnum || t.enum == u.enum)
}

type genum struct {
	name   string
	values []string
}

type gvar struct {
	name string
	t    gtype
	arr  int // array length, 0 for a scalar
}

type gconst struct {
	name string
	v    int64
	b    bool
	isB  bool
}

type gproc struct {
	name   string
	index  int
	params []gvar
	result *gtype
}

type genOptions struct {
	procs      int  // number of procedures
	threads    int  // initial threads
	recursion  bool // calls may go to any procedure
	forks      bool // start inside procedures
	maxStmts   int  // statements per block
	maxDepth   int  // nesting of statements
	anyGlobals bool // globals may be initialized with ?
	// cops draws the nodes only readers build too (C's operators,
	// conversions, conditionals), spelled as parser.COperators reads
	// them. Without it the draws are those of the .pds language alone.
	cops bool
}

type gen struct {
	r      *rand.Rand
	o      genOptions
	out    strings.Builder
	consts []gconst
	enums  []*genum
	procs  []*gproc

	// per procedure
	cur     *gproc
	scopes  [][]gvar
	nLocal  int
	loops   int
	atomic  int
	labels  []string
	nLabel  int
	nGoto   int
	returns bool
}

func (g *gen) pick(n int) int { return g.r.Intn(n) }
func (g *gen) chance(p float64) bool {
	return g.r.Float64() < p
}

func (g *gen) randType() gtype {
	switch g.pick(5) {
	case 0, 1:
		return gtype{kind: tBool}
	case 2:
		if len(g.enums) > 0 {
			return gtype{kind: tEnum, enum: g.enums[g.pick(len(g.enums))]}
		}
	}
	return gtype{kind: tInt, w: 1 + g.pick(3)}
}

// typeText writes a type, sometimes with a constant width.
func (g *gen) typeText(t gtype) string {
	if t.kind == tInt {
		for _, k := range g.consts {
			if !k.isB && k.v == int64(t.w) && g.chance(0.5) {
				return fmt.Sprintf("int<%s>", k.name)
			}
		}
		if g.chance(0.1) {
			return fmt.Sprintf("int<(%d + 0)>", t.w)
		}
	}
	return t.String()
}

func (g *gen) vars() []gvar {
	var vs []gvar
	for _, s := range g.scopes {
		vs = append(vs, s...)
	}
	return vs
}

func (g *gen) scalars(t *gtype) []gvar {
	var out []gvar
	for _, v := range g.vars() {
		if v.arr == 0 && (t == nil || v.t.same(*t)) {
			out = append(out, v)
		}
	}
	return out
}

func (g *gen) arrays(t *gtype) []gvar {
	var out []gvar
	for _, v := range g.vars() {
		if v.arr > 0 && (t == nil || v.t.same(*t)) {
			out = append(out, v)
		}
	}
	return out
}

// iexpr is an integer expression: width 0 and value v when constant.
type iexpr struct {
	s string
	w int
	c bool
	v int64
}

func lit(v int64) iexpr { return iexpr{s: fmt.Sprint(v), c: true, v: v} }

// fit makes a constant fit w bits.
func fit(e iexpr, w int) iexpr {
	if e.c && (e.v < 0 || e.v >= 1<<w) {
		v := e.v % (1 << w)
		if v < 0 {
			v += 1 << w
		}
		return lit(v)
	}
	return e
}

func (g *gen) intExpr(depth int) iexpr {
	intT := gtype{kind: tInt}
	if g.o.cops && depth > 0 && g.chance(0.35) {
		return g.cIntExpr(depth)
	}
	for {
		switch g.pick(8) {
		case 0:
			return lit(int64(g.pick(5)))
		case 1:
			for _, k := range g.consts {
				if !k.isB && g.chance(0.5) {
					return iexpr{s: k.name, c: true, v: k.v}
				}
			}
		case 2, 3:
			if vs := g.scalars(&intT); len(vs) > 0 {
				v := vs[g.pick(len(vs))]
				return iexpr{s: v.name, w: v.t.w}
			}
		case 4:
			if as := g.arrays(&intT); len(as) > 0 && depth > 0 {
				a := as[g.pick(len(as))]
				return iexpr{s: fmt.Sprintf("%s[%s]", a.name, g.index(depth-1, a.arr)), w: a.t.w}
			}
		case 5, 6:
			if depth > 0 {
				l, r := g.intExpr(depth-1), g.intExpr(depth-1)
				op := []string{"+", "-", "*"}[g.pick(3)]
				switch {
				case l.c && r.c:
					var v int64
					switch op {
					case "+":
						v = l.v + r.v
					case "-":
						v = l.v - r.v
					default:
						v = l.v * r.v
					}
					if v < 0 {
						op, v = "+", l.v+r.v
					}
					return iexpr{s: "(" + l.s + " " + op + " " + r.s + ")", c: true, v: v}
				case l.c:
					l = fit(l, r.w)
				case r.c:
					r = fit(r, l.w)
				}
				return iexpr{s: "(" + l.s + " " + op + " " + r.s + ")", w: max(l.w, r.w)}
			}
		case 7:
			if depth > 0 {
				x := g.intExpr(depth - 1)
				if !x.c {
					return iexpr{s: "-" + x.s, w: x.w}
				}
			}
		}
	}
}

// typed gives a constant a width of 1 to 3 bits by a conversion (the
// value wraps around); other expressions have one.
func (g *gen) typed(e iexpr) iexpr {
	if !e.c {
		return e
	}
	w := 1 + g.pick(3)
	return iexpr{s: fmt.Sprintf("((%s<%d>) %s)", []string{"int", "sint"}[g.pick(2)], w, e.s), w: w}
}

// sameWidth brings two operands to one width: a constant fits the other
// operand, a narrower operand is converted (zero- or sign-extended).
func (g *gen) sameWidth(l, r iexpr) (iexpr, iexpr) {
	switch {
	case l.c && r.c:
		l = g.typed(l)
		r = fit(r, l.w)
	case l.c:
		l = fit(l, r.w)
	case r.c:
		r = fit(r, l.w)
	case l.w != r.w:
		conv := []string{"int", "sint"}[g.pick(2)]
		if g.chance(0.5) {
			r = iexpr{s: fmt.Sprintf("((%s<%d>) %s)", conv, l.w, r.s), w: l.w}
		} else {
			l = iexpr{s: fmt.Sprintf("((%s<%d>) %s)", conv, r.w, l.s), w: r.w}
		}
	}
	return l, r
}

// cIntExpr draws an integer expression with a node only readers build at
// its root.
func (g *gen) cIntExpr(depth int) iexpr {
	switch g.pick(6) {
	case 0, 1: // & | ^ / % and signed / %: operands of one width
		op := []string{"/", "%", "&", "|", "^", "/s", "%s"}[g.pick(7)]
		l, r := g.sameWidth(g.intExpr(depth-1), g.intExpr(depth-1))
		return iexpr{s: "(" + l.s + " " + op + " " + r.s + ")", w: max(l.w, r.w)}
	case 2: // shifts: the count of any width
		op := []string{"<<", ">>", ">>s"}[g.pick(3)]
		l := g.typed(g.intExpr(depth - 1))
		r := g.intExpr(depth - 1)
		return iexpr{s: "(" + l.s + " " + op + " " + r.s + ")", w: l.w}
	case 3:
		x := g.typed(g.intExpr(depth - 1))
		return iexpr{s: "(~" + x.s + ")", w: x.w}
	case 4: // conversions, narrowing or widening, of an int or a bool
		w := 1 + g.pick(3)
		conv := []string{"int", "sint"}[g.pick(2)]
		if g.chance(0.2) {
			return iexpr{s: fmt.Sprintf("((%s<%d>) %s)", conv, w, g.boolExpr(depth-1)), w: w}
		}
		return iexpr{s: fmt.Sprintf("((%s<%d>) %s)", conv, w, g.intExpr(depth-1).s), w: w}
	default: // a conditional: the branch not chosen is not evaluated
		c := g.boolExpr(depth - 1)
		l, r := g.sameWidth(g.intExpr(depth-1), g.intExpr(depth-1))
		return iexpr{s: "(" + c + " ? " + l.s + " : " + r.s + ")", w: max(l.w, r.w)}
	}
}

// cBoolExpr draws a bool expression with a node only readers build at its
// root.
func (g *gen) cBoolExpr(depth int) string {
	switch g.pick(4) {
	case 0: // signed orderings; operands of different widths are
		// sign-extended
		l, r := g.intExpr(depth-1), g.intExpr(depth-1)
		switch {
		case l.c && r.c:
		case l.c:
			l = fit(l, r.w)
		case r.c:
			r = fit(r, l.w)
		}
		op := []string{"<s", "<=s", ">s", ">=s"}[g.pick(4)]
		return "(" + l.s + " " + op + " " + r.s + ")"
	case 1:
		op := []string{"&", "|", "^"}[g.pick(3)]
		return "(" + g.boolExpr(depth-1) + " " + op + " " + g.boolExpr(depth-1) + ")"
	case 2:
		return "((bool) " + g.intExpr(depth-1).s + ")"
	}
	return "(" + g.boolExpr(depth-1) + " ? " + g.boolExpr(depth-1) + " : " + g.boolExpr(depth-1) + ")"
}

// index returns an index for an array of n elements, sometimes out of
// range, sometimes guarded.
func (g *gen) index(depth, n int) string { return g.indexExpr(depth, n).s }

func (g *gen) indexExpr(depth, n int) iexpr {
	if g.chance(0.3) {
		return lit(int64(g.pick(n + 1)))
	}
	e := g.intExpr(depth)
	if e.c && e.v < 0 {
		return lit(0)
	}
	return e
}

func (g *gen) boolExpr(depth int) string {
	boolT := gtype{kind: tBool}
	if g.o.cops && depth > 0 && g.chance(0.3) {
		return g.cBoolExpr(depth)
	}
	for {
		switch g.pick(10) {
		case 0:
			return []string{"true", "false"}[g.pick(2)]
		case 1:
			for _, k := range g.consts {
				if k.isB {
					return k.name
				}
			}
		case 2, 3:
			if vs := g.scalars(&boolT); len(vs) > 0 {
				return vs[g.pick(len(vs))].name
			}
		case 4:
			if as := g.arrays(&boolT); len(as) > 0 && depth > 0 {
				a := as[g.pick(len(as))]
				i := g.indexExpr(depth-1, a.arr)
				if g.chance(0.5) && (i.c || a.arr < 1<<i.w) {
					// short-circuit guard
					return fmt.Sprintf("(%s < %d && %s[%s])", i.s, a.arr, a.name, i.s)
				}
				return fmt.Sprintf("%s[%s]", a.name, i.s)
			}
		case 5, 6:
			if depth > 0 {
				l, r := g.intExpr(depth-1), g.intExpr(depth-1)
				switch {
				case l.c && r.c:
				case l.c:
					l = fit(l, r.w)
				case r.c:
					r = fit(r, l.w)
				}
				op := []string{"==", "!=", "<", "<=", ">", ">="}[g.pick(6)]
				return "(" + l.s + " " + op + " " + r.s + ")"
			}
		case 7:
			if len(g.enums) > 0 {
				e := g.enums[g.pick(len(g.enums))]
				t := gtype{kind: tEnum, enum: e}
				if vs := g.scalars(&t); len(vs) > 0 {
					op := []string{"==", "!="}[g.pick(2)]
					return "(" + vs[g.pick(len(vs))].name + " " + op + " " + g.enumExpr(e, depth-1) + ")"
				}
			}
		case 8:
			if depth > 0 {
				return "!" + g.boolExpr(depth-1)
			}
		case 9:
			if depth > 0 {
				op := []string{"&&", "||", "==", "!="}[g.pick(4)]
				return "(" + g.boolExpr(depth-1) + " " + op + " " + g.boolExpr(depth-1) + ")"
			}
		}
	}
}

func (g *gen) enumExpr(e *genum, depth int) string {
	t := gtype{kind: tEnum, enum: e}
	if g.o.cops && depth > 0 && g.chance(0.2) {
		return "(" + g.boolExpr(depth-1) + " ? " + g.enumExpr(e, depth-1) + " : " + g.enumExpr(e, depth-1) + ")"
	}
	switch g.pick(3) {
	case 0:
		if vs := g.scalars(&t); len(vs) > 0 {
			return vs[g.pick(len(vs))].name
		}
	case 1:
		if as := g.arrays(&t); len(as) > 0 && depth > 0 {
			a := as[g.pick(len(as))]
			return fmt.Sprintf("%s[%s]", a.name, g.index(depth-1, a.arr))
		}
	}
	return e.values[g.pick(len(e.values))]
}

// expr returns an expression assignable to t.
func (g *gen) expr(t gtype, depth int) string {
	switch t.kind {
	case tBool:
		return g.boolExpr(depth)
	case tEnum:
		return g.enumExpr(t.enum, depth)
	}
	return fit(g.intExpr(depth), t.w).s
}

// constOf returns a constant of type t (for initializers and thread
// arguments).
func (g *gen) constOf(t gtype) string {
	switch t.kind {
	case tBool:
		return []string{"true", "false"}[g.pick(2)]
	case tEnum:
		return t.enum.values[g.pick(len(t.enum.values))]
	}
	return fmt.Sprint(g.pick(1 << t.w))
}

func (g *gen) declare(v gvar) { g.scopes[len(g.scopes)-1] = append(g.scopes[len(g.scopes)-1], v) }

// ----------------------------------------------------------------------------
// Statements

func (g *gen) block(depth int, ind string) string {
	g.scopes = append(g.scopes, nil)
	n := 1 + g.pick(g.o.maxStmts)
	var b strings.Builder
	b.WriteString("{\n")
	for i := 0; i < n; i++ {
		b.WriteString(ind + "  " + g.stmt(depth, ind+"  ") + "\n")
	}
	b.WriteString(ind + "}")
	g.scopes = g.scopes[:len(g.scopes)-1]
	return b.String()
}

// callees returns the procedures the current one may call.
func (g *gen) callees(result *gtype) []*gproc {
	var out []*gproc
	for _, p := range g.procs {
		if p.index <= g.cur.index && !(g.o.recursion && g.chance(0.3)) {
			continue
		}
		if result != nil && (p.result == nil || !p.result.same(*result)) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func (g *gen) args(p *gproc, depth int) string {
	as := make([]string, len(p.params))
	for i, prm := range p.params {
		as[i] = g.expr(prm.t, depth)
	}
	return p.name + "(" + strings.Join(as, ", ") + ")"
}

func (g *gen) newLocal(t gtype) gvar {
	g.nLocal++
	return gvar{name: fmt.Sprintf("l%d_%s", g.nLocal, g.cur.name), t: t}
}

func (g *gen) stmt(depth int, ind string) string {
	for {
		if s, ok := g.stmt1(depth, ind); ok {
			return s
		}
	}
}

func (g *gen) stmt1(depth int, ind string) (string, bool) {
	atomic := g.atomic > 0
	switch g.pick(26) {
	case 0:
		return "skip;", true
	case 1, 2, 3:
		vs := g.scalars(nil)
		if len(vs) == 0 {
			return "", false
		}
		v := vs[g.pick(len(vs))]
		return fmt.Sprintf("%s = %s;", v.name, g.expr(v.t, 2)), true
	case 4:
		vs := g.scalars(nil)
		if len(vs) == 0 {
			return "", false
		}
		v := vs[g.pick(len(vs))]
		return v.name + " = ?;", true
	case 5:
		// parallel assignment: scalars and array elements, the same array
		// possibly twice (the later target wins when the indices agree)
		type lv struct {
			s string
			t gtype
		}
		var lvs []lv
		used := map[string]bool{}
		for k := 0; k < 2+g.pick(2); k++ {
			if as := g.arrays(nil); len(as) > 0 && g.chance(0.4) {
				a := as[g.pick(len(as))]
				// Plain indices: the generator knows a constant's value
				// only without the nodes of cops (equal constant indices
				// twice are an error).
				cops := g.o.cops
				g.o.cops = false
				i := g.indexExpr(1, a.arr)
				g.o.cops = cops
				if i.c {
					k := fmt.Sprintf("%s[%d]", a.name, i.v)
					if used[k] {
						continue
					}
					used[k] = true
				}
				lvs = append(lvs, lv{fmt.Sprintf("%s[%s]", a.name, i.s), a.t})
				continue
			}
			vs := g.scalars(nil)
			if len(vs) == 0 {
				continue
			}
			v := vs[g.pick(len(vs))]
			if used[v.name] {
				continue
			}
			used[v.name] = true
			lvs = append(lvs, lv{v.name, v.t})
		}
		if len(lvs) < 2 {
			return "", false
		}
		var ls, rs []string
		for _, l := range lvs {
			ls = append(ls, l.s)
			rs = append(rs, g.expr(l.t, 1))
		}
		return strings.Join(ls, ", ") + " = " + strings.Join(rs, ", ") + ";", true
	case 6, 7:
		as := g.arrays(nil)
		if len(as) == 0 {
			return "", false
		}
		a := as[g.pick(len(as))]
		if g.chance(0.15) {
			return fmt.Sprintf("%s[%s] = ?;", a.name, g.index(1, a.arr)), true
		}
		return fmt.Sprintf("%s[%s] = %s;", a.name, g.index(1, a.arr), g.expr(a.t, 1)), true
	case 8, 9:
		t := g.randType()
		v := g.newLocal(t)
		var s string
		switch g.pick(6) {
		case 0:
			s = fmt.Sprintf("%s %s;", g.typeText(t), v.name)
		case 1:
			s = fmt.Sprintf("%s %s = ?;", g.typeText(t), v.name)
		case 2:
			if atomic {
				return "", false
			}
			ps := g.callees(&t)
			if len(ps) == 0 {
				return "", false
			}
			s = fmt.Sprintf("%s %s = %s;", g.typeText(t), v.name, g.args(ps[g.pick(len(ps))], 1))
		case 3:
			v.arr = 2 + g.pick(2)
			s = fmt.Sprintf("%s %s[%d];", g.typeText(t), v.name, v.arr)
		case 4:
			w := g.newLocal(t)
			s = fmt.Sprintf("%s %s = %s, %s;", g.typeText(t), v.name, g.expr(t, 1), w.name)
			g.declare(v)
			g.declare(w)
			return s, true
		default:
			s = fmt.Sprintf("%s %s = %s;", g.typeText(t), v.name, g.expr(t, 2))
		}
		g.declare(v)
		return s, true
	case 10, 11:
		if depth <= 0 {
			return "", false
		}
		cond := "?"
		if g.chance(0.8) {
			cond = g.boolExpr(2)
		}
		s := fmt.Sprintf("if (%s) %s", cond, g.block(depth-1, ind))
		if g.chance(0.5) {
			s += " else " + g.block(depth-1, ind)
		}
		return s, true
	case 12:
		if depth <= 0 || atomic {
			return "", false
		}
		cond := "?"
		if g.chance(0.8) {
			cond = g.boolExpr(2)
		}
		g.loops++
		s := fmt.Sprintf("while (%s) %s", cond, g.block(depth-1, ind))
		g.loops--
		return s, true
	case 13:
		if g.loops == 0 || atomic {
			return "", false
		}
		return []string{"break;", "continue;"}[g.pick(2)], true
	case 14, 15, 24, 25:
		if atomic {
			return "", false
		}
		ps := g.callees(nil)
		if len(ps) == 0 {
			return "", false
		}
		p := ps[g.pick(len(ps))]
		if p.result != nil && g.chance(0.7) {
			// store the result: a variable or an array element
			if as := g.arrays(p.result); len(as) > 0 && g.chance(0.4) {
				a := as[g.pick(len(as))]
				return fmt.Sprintf("%s[%s] = %s;", a.name, g.index(1, a.arr), g.args(p, 1)), true
			}
			if vs := g.scalars(p.result); len(vs) > 0 {
				return fmt.Sprintf("%s = %s;", vs[g.pick(len(vs))].name, g.args(p, 1)), true
			}
		}
		return g.args(p, 1) + ";", true
	case 16:
		if atomic || !g.chance(0.5) {
			return "", false
		}
		g.returns = true
		if g.cur.result == nil {
			return "return;", true
		}
		return "return " + g.expr(*g.cur.result, 2) + ";", true
	case 17, 18:
		return "assert(" + g.boolExpr(2) + ");", true
	case 19:
		if !g.chance(0.4) {
			return "", false
		}
		return "assume(" + g.boolExpr(2) + ");", true
	case 20:
		if depth <= 0 {
			return "", false
		}
		g.atomic++
		s := "atomic " + g.block(depth-1, ind)
		g.atomic--
		return s, true
	case 21:
		if atomic {
			return "", false
		}
		g.nGoto++
		return "goto @GOTO@;", true
	case 22:
		if atomic || depth <= 0 {
			return "", false
		}
		l := fmt.Sprintf("L%d", g.nLabel)
		g.nLabel++
		g.labels = append(g.labels, l)
		return l + ": " + g.stmt(depth-1, ind), true
	case 23:
		if atomic || !g.o.forks {
			return "", false
		}
		p := g.procs[g.pick(len(g.procs))]
		return "start " + g.args(p, 1) + ";", true
	}
	return "", false
}

// program returns a random program.
func genProgram(r *rand.Rand, o genOptions) string {
	g := &gen{r: r, o: o}
	w := &g.out
	// constants and enums
	if g.chance(0.5) {
		g.consts = append(g.consts, gconst{name: "K0", v: int64(1 + g.pick(3))})
		fmt.Fprintf(w, "const K0 = %d;\n", g.consts[0].v)
	}
	if g.chance(0.3) {
		g.consts = append(g.consts, gconst{name: "KB", b: true, isB: true})
		w.WriteString("const KB = !false;\n")
	}
	if g.chance(0.6) {
		e := &genum{name: "E"}
		for i := 0; i < 2+g.pick(2); i++ {
			e.values = append(e.values, fmt.Sprintf("E%c", 'a'+i))
		}
		g.enums = append(g.enums, e)
		fmt.Fprintf(w, "enum E { %s };\n", strings.Join(e.values, ", "))
	}
	// globals
	g.scopes = [][]gvar{nil}
	bits, anyUsed := 0, false
	for i := 0; i < 1+g.pick(3) && bits < 6; i++ {
		t := g.randType()
		v := gvar{name: fmt.Sprintf("g%d", i), t: t}
		init := ""
		if g.chance(0.2) {
			v.arr = 2 + g.pick(2)
			if o.anyGlobals && !anyUsed && t.kind == tBool && g.chance(0.3) {
				init, anyUsed = " = ?", true
			}
			fmt.Fprintf(w, "%s %s[%d]%s;\n", g.typeText(t), v.name, v.arr, init)
			bits += v.arr * max(1, t.w)
		} else {
			switch {
			case o.anyGlobals && !anyUsed && g.chance(0.2):
				init, anyUsed = " = ?", true
			case g.chance(0.5):
				init = " = " + g.constOf(t)
			}
			fmt.Fprintf(w, "%s %s%s;\n", g.typeText(t), v.name, init)
			bits += max(1, t.w)
		}
		g.declare(v)
	}
	// signatures
	for i := 0; i < o.procs; i++ {
		p := &gproc{name: fmt.Sprintf("p%d", i), index: i}
		for j := 0; j < g.pick(3); j++ {
			p.params = append(p.params, gvar{name: fmt.Sprintf("a%d_%d", j, i), t: g.randType()})
		}
		if g.chance(0.5) {
			t := g.randType()
			p.result = &t
		}
		g.procs = append(g.procs, p)
	}
	// bodies
	for _, p := range g.procs {
		g.cur, g.nLocal, g.labels, g.nLabel, g.nGoto = p, 0, nil, 0, 0
		g.scopes = append(g.scopes, p.params)
		var params []string
		for _, prm := range p.params {
			params = append(params, g.typeText(prm.t)+" "+prm.name)
		}
		res := ""
		if p.result != nil {
			res = " : " + g.typeText(*p.result)
		}
		body := g.block(o.maxDepth, "")
		// goto targets
		for strings.Contains(body, "@GOTO@") {
			target := ""
			if len(g.labels) > 0 {
				target = "goto " + g.labels[g.pick(len(g.labels))] + ";"
			} else {
				target = "skip;"
			}
			body = strings.Replace(body, "goto @GOTO@;", target, 1)
		}
		fmt.Fprintf(w, "proc %s(%s)%s %s\n", p.name, strings.Join(params, ", "), res, body)
		g.scopes = g.scopes[:1]
	}
	// threads
	for i := 0; i < o.threads; i++ {
		p := g.procs[0]
		if i > 0 || g.chance(0.2) {
			p = g.procs[g.pick(len(g.procs))]
		}
		as := make([]string, len(p.params))
		for j, prm := range p.params {
			as[j] = g.constOf(prm.t)
		}
		fmt.Fprintf(w, "start %s(%s);\n", p.name, strings.Join(as, ", "))
	}
	return w.String()
}
