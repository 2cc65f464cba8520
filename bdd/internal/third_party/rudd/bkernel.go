// Copyright (c) 2021 Silvano DAL ZILIO
//
// MIT License

package rudd

import (
	"log"
	"math"
)

// retnode creates a Node for external use. cbreach: rudd counted the
// pointers it returned and set a finalizer on each; that count saturated
// and its finalizers raced with the operations. The bdd package above
// keeps the references itself (it sets refcou), so retnode only wraps,
// and without allocating: the Node points to one of a ring of retRing
// cells, so it holds its id until retRing more results have been
// returned. Package bdd reads the id at once (it gives out Nodes of its
// own), and must copy it to keep it.
func (b *tables) retnode(n int) Node {
	if n < 0 || n >= len(b.nodes) {
		return nil
	}
	b.reti = (b.reti + 1) % retRing
	b.ret[b.reti] = n
	return &b.ret[b.reti]
}

const retRing = 16

func (b *tables) makenode(level int32, low, high int, refstack []int) (int, error) {
	if _DEBUG {
		b.uniqueAccess++
	}
	// check whether childs are equal or there is an error
	if low == high {
		return low, nil
	}
	// otherwise try to find an existing node using the hash and next fields
	hash := b.nodehash(level, low, high)
	res := int(b.nodes[hash].hash)
	for res != 0 {
		if b.nodes[res].level == level && int(b.nodes[res].low) == low && int(b.nodes[res].high) == high {
			if _DEBUG {
				b.uniqueHit++
			}
			return res, nil
		}
		res = int(b.nodes[res].next)
		if _DEBUG {
			b.uniqueChain++
		}
	}
	if _DEBUG {
		b.uniqueMiss++
	}
	// If no existing node, we build one. If there is no available spot
	// (b.freepos == 0), we try garbage collection and, as a last resort,
	// resizing the BDD list.
	var err error
	if b.freepos == 0 && len(b.nodes) < b.growbelow {
		// cbreach: see SetGrowBelow. Growing keeps every node where it
		// is, so the caches stay valid (cacheresize empties them anyway).
		if b.noderesize() == errResize {
			hash = b.nodehash(level, low, high)
			err = errGrown
		}
	}
	if b.freepos == 0 {
		// We garbage collect unused nodes to try and find spare space.
		// cbreach: package bdd first gives back the nodes whose handles
		// died (see SetBeforeCollect).
		if b.precollect != nil {
			b.precollect()
		}
		b.gbc(refstack)
		err = errReset
		// cbreach: before growing, let package bdd give back the nodes
		// whose handles died since (see SetBeforeGrow), and collect again.
		if (b.freenum*100)/len(b.nodes) <= b.minfreenodes && b.beforegrow != nil && b.produced-b.grewAt >= beforeGrowEvery*len(b.nodes) {
			b.grewAt = b.produced
			b.beforegrow()
			b.gbc(refstack)
		}
		// We also test if we are under the threshold for resising.
		if (b.freenum*100)/len(b.nodes) <= b.minfreenodes {
			err = b.noderesize()
			if err != errResize {
				return -1, errMemory
			}
			hash = b.nodehash(level, low, high)
		}
		// Panic if we still have no free positions after all this
		if b.freepos == 0 {
			// b.seterror("Unable to resize BDD")
			return -1, errMemory
		}
	}
	// We can now build the new node in the first available spot
	res = b.freepos
	b.freepos = int(b.nodes[b.freepos].next)
	b.freenum--
	b.produced++
	b.nodes[res].level = level
	b.nodes[res].low = int32(low)
	b.nodes[res].high = int32(high)
	b.nodes[res].next = b.nodes[hash].hash
	b.nodes[hash].hash = int32(res)
	return res, err
}

func (b *tables) noderesize() error {
	if _LOGLEVEL > 0 {
		log.Printf("start resize: %d\n", len(b.nodes))
	}
	// if b.error != nil {
	// 	b.seterror("Error before resizing; %s", b.error)
	// 	return b.error
	// }
	oldsize := len(b.nodes)
	nodesize := len(b.nodes)
	if (oldsize >= b.maxnodesize) && (b.maxnodesize > 0) {
		// b.seterror("Cannot resize BDD, already at max capacity (%d nodes)", b.maxnodesize)
		return errMemory
	}
	if oldsize > (math.MaxInt32 >> 1) {
		nodesize = math.MaxInt32 - 1
	} else {
		nodesize = nodesize << 1
	}
	if b.maxnodeincrease > 0 && nodesize > (oldsize+b.maxnodeincrease) {
		nodesize = oldsize + b.maxnodeincrease
	}
	if (nodesize > b.maxnodesize) && (b.maxnodesize > 0) {
		nodesize = b.maxnodesize
	}
	nodesize = primeLte(nodesize)
	if nodesize <= oldsize {
		// b.seterror("Unable to grow size of BDD (%d nodes)", nodesize)
		return errMemory
	}

	tmp := b.nodes
	b.nodes = make([]buddynode, nodesize)
	copy(b.nodes, tmp)

	for n := 0; n < oldsize; n++ {
		b.nodes[n].hash = 0
	}
	for n := oldsize; n < nodesize; n++ {
		b.nodes[n].refcou = 0
		b.nodes[n].hash = 0
		b.nodes[n].level = 0
		b.nodes[n].low = -1
		b.nodes[n].next = int32(n + 1)
	}
	b.nodes[nodesize-1].next = int32(b.freepos)
	b.freepos = oldsize
	b.freenum += (nodesize - oldsize)

	// We recompute the hashes since nodesize is modified.
	b.freepos = 0
	b.freenum = 0
	for n := nodesize - 1; n > 1; n-- {
		if b.nodes[n].low != -1 {
			hash := b.ptrhash(n)
			b.nodes[n].next = b.nodes[hash].hash
			b.nodes[hash].hash = int32(n)
		} else {
			b.nodes[n].next = int32(b.freepos)
			b.freepos = n
			b.freenum++
		}
	}

	if _LOGLEVEL > 0 {
		log.Printf("end resize: %d\n", len(b.nodes))
	}
	// b.cacheresize(len(b.nodes))
	return errResize
}

// gbc is the garbage collector called for reclaiming memory, inside a call to
// makenode, when there are no free positions available. Allocated nodes that
// are not reclaimed do not move.
func (b *tables) gbc(refstack []int) {
	b.collections++ // cbreach: see quantset2cache
	if _LOGLEVEL > 0 {
		log.Println("starting GC")
	}

	// We could  explicitly ask the system to run its GC so that we can
	// decrement the ref counts of Nodes that had an external reference. This is
	// blocking. Frequent GC is time consuming, but with fewer GC we can
	// experience more resizing events.
	//
	// FIXME: maybe add a gotask that does a runtime GC after a few resizing
	// and/or a fixed time if we have too many gbc
	//
	// runtime.GC()

	// we append the current stats to the GC history
	if _DEBUG {
		b.gcstat.history = append(b.gcstat.history, gcpoint{
			nodes:            len(b.nodes),
			freenodes:        b.freenum,
			setfinalizers:    int(b.gcstat.setfinalizers),
			calledfinalizers: int(b.gcstat.calledfinalizers),
		})
		if _LOGLEVEL > 0 {
			log.Printf("runtime.GC() reclaimed %d references\n", b.gcstat.calledfinalizers)
		}
		b.gcstat.setfinalizers = 0
		b.gcstat.calledfinalizers = 0
	} else {
		b.gcstat.history = append(b.gcstat.history, gcpoint{
			nodes:     len(b.nodes),
			freenodes: b.freenum,
		})
	}
	// we mark the nodes in the refstack to avoid collecting them
	for _, r := range refstack {
		b.markrec(int(r))
	}
	// we also protect nodes with a positive refcount (and therefore also the
	// ones with a MAXREFCOUNT, such has variables)
	for k := range b.nodes {
		if b.nodes[k].refcou > 0 {
			b.markrec(k)
		}
		b.nodes[k].hash = 0
	}
	b.freepos = 0
	b.freenum = 0
	// we do a pass through the nodes list to update the hash chains and void
	// the unmarked nodes. After finishing this pass, b.freepos points to the
	// first free position in b.nodes, or it is 0 if we found none.
	for n := len(b.nodes) - 1; n > 1; n-- {
		if b.ismarked(n) && (b.nodes[n].low != -1) {
			b.unmarknode(n)
			hash := b.ptrhash(int(n))
			b.nodes[n].next = b.nodes[hash].hash
			b.nodes[hash].hash = int32(n)
		} else {
			b.nodes[n].low = -1
			b.nodes[n].next = int32(b.freepos)
			b.freepos = n
			b.freenum++
		}
	}
	// we also invalidate the caches
	// b.cachereset()
	if _LOGLEVEL > 0 {
		log.Printf("end GC; freenum: %d\n", b.freenum)
	}
}

func (b *tables) markrec(n int) {
	if n < 2 || b.ismarked(n) || (b.nodes[n].low == -1) {
		return
	}
	b.marknode(n)
	b.markrec(int(b.nodes[n].low))
	b.markrec(int(b.nodes[n].high))
}

func (b *tables) unmarkall() {
	for k, v := range b.nodes {
		if k < 2 || !b.ismarked(k) || (v.low == -1) {
			continue
		}
		b.unmarknode(k)
	}
}
