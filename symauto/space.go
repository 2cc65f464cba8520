package symauto

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Space holds what every automaton of one network shares: the manager, the
// quantification sets and the renamings that saturation and splitting use,
// built once.
type Space struct {
	Net *pds.Network
	M   *bdd.Manager
	S   *pds.Sets

	gl, savedEntry, retLink, link, grl, lEntry, start, notStart, ret, entry bdd.VarSet
	entryEqCur                                                              bdd.Node // G == Ge AND L == Le
	startEqCur                                                              bdd.Node // Gs == G

	renNext     *bdd.Renaming // G'->G, L'->L
	renPushMid  *bdd.Renaming // G'->Gl, L'->Ll, L''->L
	renPop      *bdd.Renaming // G'->G, Ge->Gl, Le->Ll
	renLinkIn   *bdd.Renaming // Gl->Ge, Ll->Le
	renCurStart *bdd.Renaming // G->Gs
	renStartCur *bdd.Renaming // Gs->G
	renStart2   *bdd.Renaming // Gs->Gt
	renCurNext  *bdd.Renaming // G->G'

	win *withinSets // built by the first Within
}

// NewSpace prepares the shared sets of a network.
func NewSpace(n *pds.Network) *Space {
	m, s := n.M, n.Sets()
	sp := &Space{Net: n, M: m, S: s}
	sp.gl = m.Union(s.G[pds.GCur], s.L[pds.LCur])
	sp.savedEntry = m.Union(s.L[pds.LSaved], s.G[pds.GEntry], s.L[pds.LEntry])
	sp.retLink = m.Union(s.R, s.G[pds.GLink], s.L[pds.LLink])
	sp.link = m.Union(s.G[pds.GLink], s.L[pds.LLink])
	sp.grl = m.Union(s.G[pds.GCur], s.R, s.L[pds.LCur])
	sp.lEntry = m.Union(s.L[pds.LCur], s.G[pds.GEntry], s.L[pds.LEntry])
	sp.entry = m.Union(s.G[pds.GEntry], s.L[pds.LEntry])
	sp.start = s.G[pds.GStart]
	sp.ret = s.R
	sp.notStart = m.Union(s.G[pds.GCur], s.G[pds.GNext], s.G[pds.GEntry], s.G[pds.GLink], s.G[pds.GStart2],
		s.L[pds.LCur], s.L[pds.LNext], s.L[pds.LSaved], s.L[pds.LEntry], s.L[pds.LLink], s.R)
	sp.entryEqCur = m.And(s.GlobalsEq(pds.GCur, pds.GEntry), s.LocalsEq(pds.LCur, pds.LEntry))
	sp.startEqCur = s.GlobalsEq(pds.GCur, pds.GStart)
	sp.renNext = s.Renaming(pds.G(pds.GNext, pds.GCur), pds.L(pds.LNext, pds.LCur))
	sp.renPushMid = s.Renaming(pds.G(pds.GNext, pds.GLink), pds.L(pds.LNext, pds.LLink), pds.L(pds.LSaved, pds.LCur))
	sp.renPop = s.Renaming(pds.G(pds.GNext, pds.GCur), pds.G(pds.GEntry, pds.GLink), pds.L(pds.LEntry, pds.LLink))
	sp.renLinkIn = s.Renaming(pds.G(pds.GLink, pds.GEntry), pds.L(pds.LLink, pds.LEntry))
	sp.renCurStart = s.Renaming(pds.G(pds.GCur, pds.GStart))
	sp.renStartCur = s.Renaming(pds.G(pds.GStart, pds.GCur))
	sp.renStart2 = s.Renaming(pds.G(pds.GStart, pds.GStart2))
	sp.renCurNext = s.Renaming(pds.G(pds.GCur, pds.GNext))
	return sp
}

// StartSet is the set of the start-global copy Gs, to quantify it away.
func (sp *Space) StartSet() bdd.VarSet { return sp.start }

// CurToStart renames the current globals G to the start copy Gs.
func (sp *Space) CurToStart(a bdd.Node) bdd.Node { return sp.M.Rename(a, sp.renCurStart) }

// StartToCur renames Gs to G.
func (sp *Space) StartToCur(a bdd.Node) bdd.Node { return sp.M.Rename(a, sp.renStartCur) }

// StartToStart2 renames Gs to the second start copy Gt.
func (sp *Space) StartToStart2(a bdd.Node) bdd.Node { return sp.M.Rename(a, sp.renStart2) }

// Init returns the automaton accepting the initial configuration of
// thread t: the network's initial globals (constants or any value) and the
// thread's initial stack. The top frame's entry values are its current
// values; frames below accept any callee entry.
func (sp *Space) Init(t *pds.Thread) *Auto {
	n, m := sp.Net, sp.M
	a := newAuto(sp)
	g := n.InitRel(pds.GCur)
	if len(t.Stack) == 0 {
		a.set(Trans{Initial, nil, Final}, g)
		return a
	}
	from := Initial
	for i := len(t.Stack) - 1; i >= 0; i-- {
		f := t.Stack[i]
		to := Final
		if i > 0 {
			to = a.state(StateName{Label: f.Label, Init: i})
		}
		l := n.FrameRel(f, pds.LCur)
		if from == Initial {
			l = m.And(g, l)
			if to != Final {
				l = m.And(l, sp.entryEqCur)
			}
		}
		a.set(Trans{from, f.Label, to}, l)
		from = to
	}
	return a
}
