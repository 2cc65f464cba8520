package bp

import (
	"fmt"

	"github.com/cbreach/cbreach/pds/diag"
	"github.com/cbreach/cbreach/pds/plural"
)

// info holds what the checker finds; the compiler reads the tree and it.
type info struct {
	getafix bool             // the first procedure is init: Getafix's dialect
	globals map[string]int   // name -> index in program.globals
	procs   map[string]*proc // by name
	scopes  map[*proc]*scope
	atomic  bool // atomic_begin or atomic_end occurs
}

// scope is what the checker knows of one procedure.
type scope struct {
	vars   map[string]int   // parameters then locals -> index
	labels map[string]*stmt // label -> statement
	starts []string         // start_thread targets, in order of first use
}

// errorLabel is the label whose reaching is an error in Getafix's
// dialect (SLAM's convention).
const errorLabel = "SLIC_ERROR"

func check(file string, prog *program, errs *errorList) *info {
	in := &info{globals: map[string]int{}, procs: map[string]*proc{}, scopes: map[*proc]*scope{}}
	for i, g := range prog.globals {
		if _, dup := in.globals[g.name]; dup {
			errs.Add(g.pos, fmt.Sprintf("global %s is declared twice", g.name))
			continue
		}
		in.globals[g.name] = i
	}
	for _, pr := range prog.procs {
		if _, dup := in.procs[pr.name.name]; dup {
			errs.Add(pr.name.pos, fmt.Sprintf("procedure %s is declared twice", pr.name.name))
			continue
		}
		in.procs[pr.name.name] = pr
	}
	if len(prog.procs) == 0 {
		errs.Add(diag.Pos{File: file, Line: 1, Col: 1}, "the program has no procedure")
		return in
	}
	in.getafix = prog.procs[0].name.name == "init"
	if !in.getafix {
		if _, ok := in.procs["main"]; !ok {
			errs.Add(prog.procs[0].name.pos, "the program has no procedure main (nor init first, as Getafix's dialect has)")
		}
	}
	for _, pr := range prog.procs {
		c := &checker{in: in, errs: errs, pr: pr, sc: &scope{vars: map[string]int{}, labels: map[string]*stmt{}}}
		in.scopes[pr] = c.sc
		for i, v := range append(append([]*ident{}, pr.params...), pr.locals...) {
			if _, dup := c.sc.vars[v.name]; dup {
				errs.Add(v.pos, fmt.Sprintf("%s is declared twice in %s", v.name, pr.name.name))
				continue
			}
			c.sc.vars[v.name] = i
		}
		c.collectLabels(pr.body)
		c.stmts(pr.body)
		if in.getafix && pr.name.name == "init" && len(pr.params) > 0 {
			errs.Add(pr.name.pos, "init takes no parameters")
		}
		if !in.getafix && pr.name.name == "main" && len(pr.params) > 0 {
			errs.Add(pr.name.pos, "main takes no parameters")
		}
		if in.getafix && pr != prog.procs[0] && len(pr.params) > 0 {
			errs.Add(pr.name.pos, fmt.Sprintf("%s is a thread of Getafix's dialect and takes no parameters", pr.name.name))
		}
	}
	if in.getafix {
		checkInitStarts(prog.procs[0], in, errs)
	}
	return in
}

// checkInitStarts refuses start_thread in init and in the procedures it
// calls: init runs to its end before any thread starts, and its final
// states are the initial configurations (doc.go, "Getafix's init").
func checkInitStarts(init *proc, in *info, errs *errorList) {
	seen := map[*proc]bool{init: true}
	queue := []*proc{init}
	for len(queue) > 0 {
		pr := queue[0]
		queue = queue[1:]
		walkStmts(pr.body, func(s *stmt) {
			switch s.kind {
			case sStartThread:
				errs.Add(s.pos, fmt.Sprintf("start_thread in %s, which init runs: init runs to its end before any thread starts", pr.name.name))
			case sCall:
				if callee, ok := in.procs[s.callee.name]; ok && !seen[callee] {
					seen[callee] = true
					queue = append(queue, callee)
				}
			}
		})
	}
}

// walkStmts calls f on every statement of list and of its nested blocks.
func walkStmts(list []*stmt, f func(*stmt)) {
	for _, s := range list {
		f(s)
		for _, b := range s.blocks {
			walkStmts(b, f)
		}
		walkStmts(s.body, f)
	}
}

type checker struct {
	in   *info
	errs *errorList
	pr   *proc
	sc   *scope
}

func (c *checker) collectLabels(list []*stmt) {
	for _, s := range list {
		for _, l := range s.labels {
			if _, dup := c.sc.labels[l.name]; dup {
				c.errs.Add(l.pos, fmt.Sprintf("label %s is defined twice in %s", l.name, c.pr.name.name))
				continue
			}
			c.sc.labels[l.name] = s
		}
		for _, b := range s.blocks {
			c.collectLabels(b)
		}
		c.collectLabels(s.body)
	}
}

func (c *checker) isVar(name string) bool {
	if _, ok := c.sc.vars[name]; ok {
		return true
	}
	_, ok := c.in.globals[name]
	return ok
}

func (c *checker) target(id *ident, seen map[string]bool) {
	if !c.isVar(id.name) {
		c.errs.Add(id.pos, fmt.Sprintf("undeclared variable %s", id.name))
	}
	if seen[id.name] {
		c.errs.Add(id.pos, fmt.Sprintf("%s is assigned twice in one statement", id.name))
	}
	seen[id.name] = true
}

func (c *checker) stmts(list []*stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

func (c *checker) stmt(s *stmt) {
	switch s.kind {
	case sAssign:
		seen := map[string]bool{}
		for _, t := range s.targets {
			c.target(t, seen)
		}
		if len(s.exprs) != len(s.targets) {
			c.errs.Add(s.pos, fmt.Sprintf("%s assigned %s", plural.Count(len(s.targets), "variable"), plural.Count(len(s.exprs), "value")))
		}
		for _, e := range s.exprs {
			c.expr(e, false)
		}
		if s.constrain != nil {
			c.expr(s.constrain, true)
		}
	case sCall:
		seen := map[string]bool{}
		for _, t := range s.targets {
			c.target(t, seen)
		}
		for _, e := range s.exprs {
			c.expr(e, false)
		}
		callee, ok := c.in.procs[s.callee.name]
		switch {
		case !ok:
			c.errs.Add(s.callee.pos, fmt.Sprintf("undeclared procedure %s", s.callee.name))
		case c.in.getafix && callee.name.name == "init":
			c.errs.Add(s.callee.pos, "init is run once, first, and cannot be called")
		case len(s.exprs) != len(callee.params):
			c.errs.Add(s.callee.pos, fmt.Sprintf("%s takes %s, not %d", s.callee.name, plural.Count(len(callee.params), "argument"), len(s.exprs)))
		case len(s.targets) > 0 && len(s.targets) != callee.results:
			c.errs.Add(s.callee.pos, fmt.Sprintf("%s returns %s, not %d", s.callee.name, plural.Count(callee.results, "value"), len(s.targets)))
		}
	case sGoto, sStartThread:
		for _, t := range s.targets {
			if t.name == errorLabel && s.kind == sGoto && c.in.getafix {
				if _, ok := c.sc.labels[t.name]; !ok {
					c.errs.Add(t.pos, fmt.Sprintf("goto %s, but %s has no label %s", t.name, c.pr.name.name, t.name))
				}
				continue
			}
			if _, ok := c.sc.labels[t.name]; !ok {
				c.errs.Add(t.pos, fmt.Sprintf("label %s is not defined in %s", t.name, c.pr.name.name))
				continue
			}
			if s.kind == sStartThread && !contains(c.sc.starts, t.name) {
				c.sc.starts = append(c.sc.starts, t.name)
			}
		}
	case sReturn:
		if len(s.exprs) != c.pr.results {
			c.errs.Add(s.pos, fmt.Sprintf("%s returns %s, not %d", c.pr.name.name, plural.Count(c.pr.results, "value"), len(s.exprs)))
		}
		for _, e := range s.exprs {
			c.expr(e, false)
		}
	case sAssume, sAssert, sWhile:
		for _, e := range s.exprs {
			c.expr(e, false)
		}
	case sIf:
		for _, e := range s.conds {
			c.expr(e, false)
		}
	case sAtomicBegin, sAtomicEnd:
		c.in.atomic = true
	}
	for _, b := range s.blocks {
		c.stmts(b)
	}
	c.stmts(s.body)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *checker) expr(e *expr, primes bool) {
	if e == nil {
		return
	}
	if e.kind == eVar {
		if !c.isVar(e.name) {
			c.errs.Add(e.pos, fmt.Sprintf("undeclared variable %s", e.name))
		}
		if e.primed && !primes {
			c.errs.Add(e.pos, fmt.Sprintf("'%s is allowed only in a constrain clause", e.name))
		}
	}
	c.expr(e.x, primes)
	c.expr(e.y, primes)
}
