// Copyright (c) 2021 Silvano DAL ZILIO
//
// MIT License

package rudd

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// Hash functions
//
// cbreach: the operands are mixed by multiplications and the hash
// reduced to [0, len) by the high word of a product (Lemire's
// multiply-shift), for any len, prime or not: no division on the path of
// every cache and node table lookup, where rudd paired the operands
// (Cantor's pairing) and took the pair modulo the table's size.

func _TRIPLE(a, b, c, len int) int {
	return reduce(mix(uint64(a)*0x9E3779B97F4A7C15+uint64(b)*0xC2B2AE3D27D4EB4F+uint64(c)*0x165667B19E3779F9), len)
}

// _PAIR maps a pair of integers (a, b) to a value in [0..len).
func _PAIR(a, b, len int) int {
	return reduce(mix(uint64(a)*0x9E3779B97F4A7C15+uint64(b)*0xC2B2AE3D27D4EB4F), len)
}

// mix spreads every bit of h over the high bits, which reduce keeps.
func mix(h uint64) uint64 {
	h ^= h >> 32
	return h * 0xD6E8FEB86659FD93
}

// reduce maps h to [0, len) by multiply-shift.
func reduce(h uint64, len int) int {
	hi, _ := bits.Mul64(h, uint64(len))
	return int(hi)
}

// Hash value modifiers for replace/compose
const cacheidREPLACE int = 0x0

// const cacheid_COMPOSE int = 0x1
// const cacheid_VECCOMPOSE int = 0x2

// Hash value modifiers for quantification
const cacheidEXIST int = 0x0
const cacheidAPPEX int = 0x3

// const cacheid_FORALL int = 0x1
// const cacheid_UNIQUE int = 0x2
// const cacheid_APPAL int = 0x4
// const cacheid_APPUN int = 0x5

// cbreach: an entry holds its first operand complemented (na = ^a), so
// that a zeroed entry (na 0, that is a -1) matches no node: a new cache
// is empty as allocated, and a reset is one clear, with no pass that sets
// every entry's a to -1 (which dominates a small run's start-up).
type data4n struct {
	res int
	na  int
	b   int
	c   int
}

type data4ncache struct {
	ratio  int
	opHit  int // entries found in the caches
	opMiss int // entries not found in the caches
	table  []data4n
}

func (bc *data4ncache) init(size, ratio int) {
	size = primeGte(size)
	bc.table = make([]data4n, size) // empty: see data4n
	bc.ratio = ratio
}

func (bc *data4ncache) resize(size int) {
	if bc.ratio > 0 {
		size = primeGte((size * bc.ratio) / 100)
		bc.table = make([]data4n, size)
		return
	}
	bc.reset()
}

// grow sizes the cache for a table grown from oldn to newn nodes without
// a collection (cbreach: see SetGrowBelow): to ratio entries per 100
// nodes, never smaller than it is (the initial size may be more). The
// entries stay valid, but a new table is simpler, and the cache is empty
// so early. (It kept the initial ratio of entries to nodes, twice the
// default ratio: on a small run most of the memory, and a new page of it
// is a page fault; Bluetooth3-11 of CUBA's suite took 0.93 of the CPU
// time at the default ratio, 21 runs each in turn.)
func (bc *data4ncache) grow(oldn, newn int) {
	if bc.ratio > 0 {
		if size := newn * bc.ratio / 100; size > len(bc.table) {
			bc.table = make([]data4n, primeGte(size))
		}
	}
}

func (bc *data4ncache) reset() {
	clear(bc.table)
}

// cache3n is used for caching replace operations
type data3ncache struct {
	ratio  int
	opHit  int // entries found in the replace cache
	opMiss int // entries not found in the replace cache
	table  []data3n
}

type data3n struct {
	res int
	na  int // ^a, as in data4n
	c   int
}

func (bc *data3ncache) init(size, ratio int) {
	size = primeGte(size)
	bc.table = make([]data3n, size) // empty: see data4n
	bc.ratio = ratio
}

func (bc *data3ncache) resize(size int) {
	if bc.ratio > 0 {
		size = primeGte((size * bc.ratio) / 100)
		bc.table = make([]data3n, size)
		return
	}
	bc.reset()
}

// grow: see data4ncache.grow.
func (bc *data3ncache) grow(oldn, newn int) {
	if bc.ratio > 0 {
		if size := newn * bc.ratio / 100; size > len(bc.table) {
			bc.table = make([]data3n, primeGte(size))
		}
	}
}

func (bc *data3ncache) reset() {
	clear(bc.table)
}

// Setup and shutdown

func (b *BDD) cacheinit(c *configs) {
	size := 10000
	if c.cachesize != 0 {
		size = c.cachesize
	}
	size = primeGte(size)
	b.applycache = &applycache{}
	b.applycache.init(size, c.cacheratio)
	b.itecache = &itecache{}
	b.itecache.init(size, c.cacheratio)
	b.quantcache = &quantcache{}
	b.quantcache.init(size, c.cacheratio)
	b.quantset = make([]int32, b.varnum)
	b.quantsetID = 0
	b.appexcache = &appexcache{}
	b.appexcache.init(size, c.cacheratio)
	b.replacecache = &replacecache{}
	b.replacecache.init(size, c.cacheratio)
}

func (b *BDD) cachereset() {
	b.applycache.reset()
	b.itecache.reset()
	b.quantcache.reset()
	b.appexcache.reset()
	b.replacecache.reset()
}

// cachegrow sizes the caches for the grown table (cbreach: see
// SetGrowBelow), at cacheratio as cacheresize does, but never smaller.
func (b *BDD) cachegrow(oldn, newn int) {
	b.applycache.grow(oldn, newn)
	b.itecache.grow(oldn, newn)
	b.quantcache.grow(oldn, newn)
	b.appexcache.grow(oldn, newn)
	b.replacecache.grow(oldn, newn)
}

func (b *BDD) cacheresize(nodesize int) {
	b.applycache.resize(nodesize)
	b.itecache.resize(nodesize)
	b.quantcache.resize(nodesize)
	b.appexcache.resize(nodesize)
	b.replacecache.resize(nodesize)
}

//
// Quantification Cache
//

// quantset2cache takes a variable list, similar to the ones generated with
// Makeset, and set the variables in the quantification cache.
func (b *BDD) quantset2cache(n int) error {
	if n < 2 {
		b.seterror("Illegal variable (%d) in varset to cache", n)
		return b.error
	}
	// cbreach: the same varset as the last call's, with no collection
	// since (so that its node id names the same set), is marked already:
	// the marking costs a step per variable, and post* quantifies over
	// the same few sets thousands of times.
	if n == b.quantsetNode && b.collections == b.quantsetGC {
		return nil
	}
	b.quantsetNode, b.quantsetGC = n, b.collections
	b.quantsetID++
	if b.quantsetID == math.MaxInt32 {
		b.quantset = make([]int32, b.varnum)
		b.quantsetID = 1
	}
	for i := n; i > 1; i = b.high(i) {
		b.quantset[b.level(i)] = b.quantsetID
		b.quantlast = b.level(i)
	}
	return nil
}

// The hash function for Apply is #(left, right, applycache.op).

type applycache struct {
	data4ncache
	op int // Current operation during an apply
}

func (bc *applycache) matchapply(left, right int) int {
	entry := bc.table[_TRIPLE(left, right, bc.op, len(bc.table))]
	if entry.na == ^left && entry.b == right && entry.c == bc.op {
		if _DEBUG {
			bc.opHit++
		}
		return entry.res
	}
	if _DEBUG {
		bc.opMiss++
	}
	return -1
}

func (bc *applycache) setapply(left, right, res int) int {
	bc.table[_TRIPLE(left, right, bc.op, len(bc.table))] = data4n{
		na:  ^left,
		b:   right,
		c:   bc.op,
		res: res,
	}
	return res
}

// The hash function for operation Not(n) is simply n.

func (bc *applycache) matchnot(n int) int {
	entry := bc.table[n%len(bc.table)]
	if entry.na == ^n && entry.c == int(opnot) {
		if _DEBUG {
			bc.opHit++
		}
		return entry.res
	}
	if _DEBUG {
		bc.opMiss++
	}
	return -1
}

func (bc *applycache) setnot(n, res int) int {
	bc.table[n%len(bc.table)] = data4n{
		na:  ^n,
		c:   int(opnot),
		res: res,
	}
	return res
}

func (bc applycache) String() string {
	res := fmt.Sprintf("== Apply cache  %d (%s)\n", len(bc.table), humanSize(len(bc.table), unsafe.Sizeof(data4n{})))
	res += fmt.Sprintf(" Operator Hits: %d (%.1f%%)\n", bc.opHit, (float64(bc.opHit)*100)/(float64(bc.opHit)+float64(bc.opMiss)))
	res += fmt.Sprintf(" Operator Miss: %d\n", bc.opMiss)
	return res
}

// The hash function for ITE is #(f,g,h), so we need to cache 4 node positions
// per entry.

type itecache struct {
	data4ncache
}

func (bc *itecache) matchite(f, g, h int) int {
	entry := bc.table[_TRIPLE(f, g, h, len(bc.table))]
	if entry.na == ^f && entry.b == g && entry.c == h {
		if _DEBUG {
			bc.opHit++
		}
		return entry.res
	}
	if _DEBUG {
		bc.opMiss++
	}
	return -1
}

func (bc *itecache) setite(f, g, h, res int) int {
	bc.table[_TRIPLE(f, g, h, len(bc.table))] = data4n{
		na:  ^f,
		b:   g,
		c:   h,
		res: res,
	}
	return res
}

func (bc itecache) String() string {
	res := fmt.Sprintf("== ITE cache    %d (%s)\n", len(bc.table), humanSize(len(bc.table), unsafe.Sizeof(data4n{})))
	res += fmt.Sprintf(" Operator Hits: %d (%.1f%%)\n", bc.opHit, (float64(bc.opHit)*100)/(float64(bc.opHit)+float64(bc.opMiss)))
	res += fmt.Sprintf(" Operator Miss: %d\n", bc.opMiss)
	return res
}

// The hash function for quantification is (n, varset, quantid).

type quantcache struct {
	data4ncache         // Cache for exist/forall results
	quantset    []int32 // Current variable set for quant.
	quantsetID  int32   // Current id used in quantset
	// cbreach: the varset node last marked in quantset, and the number of
	// collections then (quantset2cache)
	quantsetNode, quantsetGC int
	quantlast                int32 // Current last variable to be quant.
	id                       int   // Current cache id for quantifications
}

func (bc *quantcache) matchquant(n, varset int) int {
	entry := bc.table[_PAIR(n, varset, len(bc.table))]
	if entry.na == ^n && entry.b == varset && entry.c == bc.id {
		if _DEBUG {
			bc.opHit++
		}
		return entry.res
	}
	if _DEBUG {
		bc.opMiss++
	}
	return -1
}

func (bc *quantcache) setquant(n, varset, res int) int {
	bc.table[_PAIR(n, varset, len(bc.table))] = data4n{
		na:  ^n,
		b:   varset,
		c:   bc.id,
		res: res,
	}
	return res
}

func (bc quantcache) String() string {
	res := fmt.Sprintf("== Quant cache  %d (%s)\n", len(bc.table), humanSize(len(bc.table), unsafe.Sizeof(data4n{})))
	res += fmt.Sprintf(" Operator Hits: %d (%.1f%%)\n", bc.opHit, (float64(bc.opHit)*100)/(float64(bc.opHit)+float64(bc.opMiss)))
	res += fmt.Sprintf(" Operator Miss: %d\n", bc.opMiss)
	return res
}

// The hash function for AppEx is #(left, right, varset << 2 | appexcache.op )
// so we can use the same cache for several operators.

// appexcache are a mix of  quant and apply caches
type appexcache struct {
	data4ncache     // Cache for appex/appall results
	op          int // Current operator for appex
	id          int // Current id
}

func (bc *appexcache) matchappex(left, right int) int {
	entry := bc.table[_TRIPLE(left, right, bc.id, len(bc.table))]
	if entry.na == ^left && entry.b == right && entry.c == bc.id {
		if _DEBUG {
			bc.opHit++
		}
		return entry.res
	}
	if _DEBUG {
		bc.opMiss++
	}
	return -1
}

func (bc *appexcache) setappex(left, right, res int) int {
	bc.table[_TRIPLE(left, right, bc.id, len(bc.table))] = data4n{
		na:  ^left,
		b:   right,
		c:   bc.id,
		res: res,
	}
	return res
}

func (bc appexcache) String() string {
	res := fmt.Sprintf("== AppEx cache  %d (%s)\n", len(bc.table), humanSize(len(bc.table), unsafe.Sizeof(data4n{})))
	res += fmt.Sprintf(" Operator Hits: %d (%.1f%%)\n", bc.opHit, (float64(bc.opHit)*100)/(float64(bc.opHit)+float64(bc.opMiss)))
	res += fmt.Sprintf(" Operator Miss: %d\n", bc.opMiss)
	return res
}

// The hash function for operation Replace(n) is simply n.

type replacecache struct {
	data3ncache     // Cache for replace results
	id          int // Current cache id for replace
}

func (bc *replacecache) matchreplace(n int) int {
	entry := bc.table[n%len(bc.table)]
	if entry.na == ^n && entry.c == bc.id {
		if _DEBUG {
			bc.opHit++
		}
		return entry.res
	}
	if _DEBUG {
		bc.opMiss++
	}
	return -1
}

func (bc *replacecache) setreplace(n, res int) int {
	bc.table[n%len(bc.table)] = data3n{
		na:  ^n,
		c:   bc.id,
		res: res,
	}
	return res
}

func (bc replacecache) String() string {
	res := fmt.Sprintf("== Replace      %d (%s)\n", len(bc.table), humanSize(len(bc.table), unsafe.Sizeof(data3n{})))
	res += fmt.Sprintf(" Operator Hits: %d (%.1f%%)\n", bc.opHit, (float64(bc.opHit)*100)/(float64(bc.opHit)+float64(bc.opMiss)))
	res += fmt.Sprintf(" Operator Miss: %d\n", bc.opMiss)
	return res
}
