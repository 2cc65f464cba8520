package states

import (
	"encoding/binary"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// The stored form of a configuration is a compact byte string, in
// unsigned varints: the number of threads, the globals, then per thread
// its depth and its frames bottom first, each a label ID followed by the
// label's procedure's locals. Two configurations of one network have the
// same key exactly when they are equal; the queues hold keys only and
// decode them when a state is expanded.

func encode(c explicit.Config) string {
	b := make([]byte, 0, 16+4*len(c.Globals))
	b = binary.AppendUvarint(b, uint64(len(c.Threads)))
	for _, g := range c.Globals {
		b = binary.AppendUvarint(b, g)
	}
	for _, s := range c.Threads {
		b = binary.AppendUvarint(b, uint64(len(s)))
		for _, f := range s {
			b = binary.AppendUvarint(b, uint64(f.Label.ID))
			for _, v := range f.Locals {
				b = binary.AppendUvarint(b, v)
			}
		}
	}
	return string(b)
}

// decode is the inverse of encode; it panics on a key encode did not
// make for n.
func decode(n *pds.Network, key string) explicit.Config {
	b := []byte(key)
	next := func() uint64 {
		v, w := binary.Uvarint(b)
		if w <= 0 {
			panic("explicit: malformed configuration key")
		}
		b = b[w:]
		return v
	}
	threads := int(next())
	c := explicit.Config{Globals: make([]uint64, len(n.Globals)), Threads: make([][]explicit.Frame, threads)}
	for i := range c.Globals {
		c.Globals[i] = next()
	}
	for t := range c.Threads {
		depth := int(next())
		s := make([]explicit.Frame, depth)
		for i := range s {
			l := n.Labels[next()]
			locals := make([]uint64, len(l.Proc.Locals))
			for j := range locals {
				locals[j] = next()
			}
			s[i] = explicit.Frame{Label: l, Locals: locals}
		}
		c.Threads[t] = s
	}
	return c
}
