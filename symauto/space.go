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

	win *withinSets  // built by the first Within
	wit *witnessSets // built by the first witness walk

	alikeV  *alikeVars              // built by the first Alike
	enabled map[*pds.Label]bdd.Node // Enabled, per label
	outputs bdd.VarSet              // every copy but G and L (Enabled)
}

// NewSpace prepares the shared sets of a network.
func NewSpace(n *pds.Network) *Space {
	m, s := n.M, n.Sets()
	sp := &Space{Net: n, M: m, S: s}
	sp.gl = m.Union(s.G[GCur], s.L[LCur])
	sp.savedEntry = m.Union(s.L[LSaved], s.G[GEntry], s.L[LEntry])
	sp.retLink = m.Union(s.R, s.G[GLink], s.L[LLink])
	sp.link = m.Union(s.G[GLink], s.L[LLink])
	sp.grl = m.Union(s.G[GCur], s.R, s.L[LCur])
	sp.lEntry = m.Union(s.L[LCur], s.G[GEntry], s.L[LEntry])
	sp.entry = m.Union(s.G[GEntry], s.L[LEntry])
	sp.start = s.G[GStart]
	sp.ret = s.R
	sp.notStart = m.Union(s.G[GCur], s.G[GNext], s.G[GEntry], s.G[GLink], s.G[GStart2],
		s.L[LCur], s.L[LNext], s.L[LSaved], s.L[LEntry], s.L[LLink], s.R)
	sp.entryEqCur = m.And(s.GlobalsEq(GCur, GEntry), s.LocalsEq(LCur, LEntry))
	sp.startEqCur = s.GlobalsEq(GCur, GStart)
	sp.renNext = s.Renaming(pds.G(GNext, GCur), pds.L(LNext, LCur))
	sp.renPushMid = s.Renaming(pds.G(GNext, GLink), pds.L(LNext, LLink), pds.L(LSaved, LCur))
	sp.renPop = s.Renaming(pds.G(GNext, GCur), pds.G(GEntry, GLink), pds.L(LEntry, LLink))
	sp.renLinkIn = s.Renaming(pds.G(GLink, GEntry), pds.L(LLink, LEntry))
	sp.renCurStart = s.Renaming(pds.G(GCur, GStart))
	sp.renStartCur = s.Renaming(pds.G(GStart, GCur))
	sp.renStart2 = s.Renaming(pds.G(GStart, GStart2))
	sp.renCurNext = s.Renaming(pds.G(GCur, GNext))
	return sp
}

// CurSet is the set of the current globals G, to quantify them away.
func (sp *Space) CurSet() bdd.VarSet { return sp.S.G[GCur] }

// Start2Set is the set of the second start copy Gt.
func (sp *Space) Start2Set() bdd.VarSet { return sp.S.G[GStart2] }

// Start2ToStart renames Gt to Gs.
func (sp *Space) Start2ToStart(a bdd.Node) bdd.Node {
	return sp.M.Rename(a, sp.S.Renaming(pds.G(GStart2, GStart)))
}

// StartOrder returns Gs < Gt under a strict total order on global
// valuations (lexicographic on the bits, bdd.Manager.Ord).
func (sp *Space) StartOrder() bdd.Node { return sp.M.Ord(GStart, GStart2, sp.Net.GlobalVars()...) }

// StartsDiffer returns Gs != Gt.
func (sp *Space) StartsDiffer() bdd.Node {
	return sp.M.Not(sp.M.CopyEq(GStart, GStart2, sp.Net.GlobalVars()...))
}

// GlobalVecs returns the current copy of every global, in order.
func (sp *Space) GlobalVecs() []bdd.Vec {
	vs := make([]bdd.Vec, len(sp.Net.Globals))
	for i, g := range sp.Net.Globals {
		vs[i] = sp.Net.GlobalVec(g, GCur)
	}
	return vs
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
	g := n.InitRel(GCur)
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
		l := n.FrameRel(f, LCur)
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
