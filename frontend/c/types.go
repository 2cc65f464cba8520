package c

import (
	"fmt"
	"strconv"

	"github.com/cbreach/cbreach/frontend/ast"
	"modernc.org/cc/v4"
)

// kind is what a C object becomes in the network.
type kind int

const (
	kVoid  kind = iota
	kBool       // _Bool: a bool
	kInt        // an integer type or an enum: int<w>, signed or not
	kMutex      // pthread_mutex_t: a bool, locked or not
	kCond       // pthread_cond_t: nothing (waits may wake spuriously)
	kPtr        // a pointer: only where it is not followed (a thread's unused argument)
)

// ctype is the lowered type of a C value: a bool, an integer of w bits
// (two's complement when signed), a mutex, or an array of them.
type ctype struct {
	k      kind
	w      int
	signed bool
	n      int // elements of an array; 0 for a scalar
}

func (t ctype) scalar() ctype { t.n = 0; return t }

func (t ctype) String() string {
	switch t.k {
	case kBool:
		return "_Bool"
	case kInt:
		s := "u"
		if t.signed {
			s = "s"
		}
		return s + strconv.Itoa(t.w)
	case kMutex:
		return "pthread_mutex_t"
	}
	return "void"
}

var (
	tBool = ctype{k: kBool}
	tInt  = ctype{k: kInt, w: 32, signed: true}
)

// typeOf lowers a C type; what it cannot represent is unsupported at n.
func (l *lowerer) typeOf(t cc.Type, n cc.Node) ctype {
	if td := t.Typedef(); td != nil {
		switch td.Name() {
		case "pthread_mutex_t":
			return ctype{k: kMutex}
		case "pthread_cond_t":
			return ctype{k: kCond}
		}
	}
	switch t.Kind() {
	case cc.Void:
		return ctype{k: kVoid}
	case cc.Bool:
		return tBool
	case cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt, cc.Long, cc.ULong, cc.LongLong, cc.ULongLong, cc.Enum:
		w := int(t.Size()) * 8
		if w > 32 {
			l.unsupported(n, fmt.Sprintf("%d-bit integers (type %s)", w, t))
		}
		return ctype{k: kInt, w: w, signed: cc.IsSignedInteger(t)}
	case cc.Ptr:
		return ctype{k: kPtr, w: int(t.Size()) * 8}
	case cc.Array:
		at := t.(*cc.ArrayType)
		el := l.typeOf(at.Elem(), n)
		if el.n > 0 || (el.k != kInt && el.k != kBool && el.k != kMutex) {
			l.unsupported(n, "arrays of "+at.Elem().String())
		}
		if at.Len() <= 0 || at.Len() > 1<<16 {
			l.unsupported(n, "an array of "+strconv.FormatInt(at.Len(), 10)+" elements")
		}
		el.n = int(at.Len())
		return el
	case cc.Float, cc.Double, cc.LongDouble:
		l.unsupported(n, "floating point")
	case cc.Struct, cc.Union:
		l.unsupported(n, "structs and unions ("+t.String()+")")
	}
	l.unsupported(n, "the type "+t.String())
	return ctype{}
}

// typeExpr is the .pds type of a lowered scalar type.
func typeExpr(t ctype) ast.TypeExpr {
	switch t.k {
	case kBool, kMutex:
		return &ast.BoolType{}
	}
	return &ast.IntType{Width: lit(uint64(t.w))}
}

// lit is an integer literal.
func lit(v uint64) *ast.BasicLit {
	return &ast.BasicLit{Kind: tokNUMBER, Value: strconv.FormatUint(v, 10)}
}
