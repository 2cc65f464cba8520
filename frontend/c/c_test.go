package c_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/frontend/c"
	"github.com/cbreach/cbreach/pds/diag"
	"github.com/stretchr/testify/require"
)

// header declares what the programs below use, as a preprocessed input
// would.
const header = `
typedef unsigned long pthread_t;
typedef union { char __size[24]; long __align; } pthread_mutex_t;
typedef union { char __size[48]; long long __align; } pthread_cond_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int pthread_mutex_trylock(pthread_mutex_t *);
extern int pthread_mutex_init(pthread_mutex_t *, const void *);
extern int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
extern int pthread_cond_signal(pthread_cond_t *);
extern void pthread_exit(void *);
extern void reach_error(void);
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void abort(void);
extern void exit(int);
`

// answer runs the program through an engine within k units and returns
// "safe", "violation N" (the fewest units) or the error.
func answer(t *testing.T, engine string, src string, k int) string {
	t.Helper()
	net, err := c.Read("prog.c", []byte(header+src), c.Options{MaxThreads: 4})
	if err != nil {
		return "error: " + err.Error()
	}
	e, err := engines.Lookup(engine)
	require.NoError(t, err)
	res, err := e.MustNew(nil).Analyze(context.Background(), net, cbr.Options{Bound: k, Traces: true})
	require.NoError(t, err)
	switch res.Verdict {
	case cbr.Violation:
		v := res.Violations[0]
		require.NotNil(t, v.Trace, "a violation comes with a replayed trace")
		return fmt.Sprintf("violation %d", v.Contexts)
	case cbr.Safe:
		return "safe"
	}
	return "unknown: " + res.Reason
}

// check runs the program through the symbolic engine and, unless it
// draws 32-bit nondeterministic values (2^32 successors each), the
// explicit engine, and requires the same answer of each.
func check(t *testing.T, src string, k int, want string) {
	t.Helper()
	engineList := []string{"cbr", "explicit"}
	if strings.Contains(src, "nondet_int") || strings.Contains(src, "nondet_uint") {
		engineList = engineList[:1]
	}
	for _, e := range engineList {
		require.Equal(t, want, answer(t, e, src, k), "engine %s", e)
	}
}

// The constructs of C, one program each: the violation needs exactly the
// semantics the package doc describes.
func TestSemantics(t *testing.T) {
	cases := []struct {
		name, src string
		k         int
		want      string
	}{
		{"arith wraps", `int main() { unsigned char c = 255; c = c + 1; if (c == 0) reach_error(); return 0; }`, 1, "violation 1"},
		{"signed compare", `int main() { int x = -1; if (x < 0) reach_error(); return 0; }`, 1, "violation 1"},
		{"unsigned compare", `int main() { unsigned x = -1; if (x < 0) reach_error(); return 0; }`, 1, "safe"},
		{"promotion", `int main() { unsigned char a = 200, b = 100; int s = a + b; if (s == 300) reach_error(); return 0; }`, 1, "violation 1"},
		{"char is signed", `int main() { char c = 200; if (c < 0) reach_error(); return 0; }`, 1, "violation 1"},
		{"sign extension", `int main() { signed char c = -3; int i = c; if (i == -3) reach_error(); return 0; }`, 1, "violation 1"},
		{"division truncates", `int main() { int a = -7; if (a / 2 == -3 && a % 2 == -1) reach_error(); return 0; }`, 1, "violation 1"},
		{"shifts", `int main() { int a = -8; unsigned b = 0x80000000u; if ((a >> 1) == -4 && (b >> 31) == 1 && (1 << 4) == 16) reach_error(); return 0; }`, 1, "violation 1"},
		{"bitwise", `int main() { int a = 12; if ((a & 10) == 8 && (a | 3) == 15 && (a ^ 5) == 9 && ~a == -13) reach_error(); return 0; }`, 1, "violation 1"},
		{"conditional", `int x; int main() { int a = x ? 5 : 7; if (a == 7) reach_error(); return 0; }`, 1, "violation 1"},
		{"bool", `_Bool b; int main() { b = 5; if (b == 1) reach_error(); return 0; }`, 1, "violation 1"},
		{"enum", `enum e { A, B, C }; enum e v = C; int main() { if (v == 2) reach_error(); return 0; }`, 1, "violation 1"},
		{"array", `int a[4]; int main() { int i; for (i = 0; i < 4; i++) a[i] = i + i; if (a[3] == 6) reach_error(); return 0; }`, 1, "violation 1"},
		{"switch", `int main() { int x = 2, y = 0; switch (x) { case 1: y = 1; break; case 2: y = 2; case 3: y = y + 1; break; default: y = 9; } if (y == 3) reach_error(); return 0; }`, 1, "violation 1"},
		{"goto and do", `int main() { int i = 0; do { i++; if (i == 3) goto out; } while (1); out: if (i == 3) reach_error(); return 0; }`, 1, "violation 1"},
		{"continue in for", `int main() { int i, n = 0; for (i = 0; i < 5; i++) { if (i % 2) continue; n++; } if (n == 3) reach_error(); return 0; }`, 1, "violation 1"},
		{"recursion", `int f(int n) { if (n == 0) return 0; return 2 + f(n - 1); } int main() { if (f(4) == 8) reach_error(); return 0; }`, 1, "violation 1"},
		{"nondet", `int main() { int x = __VERIFIER_nondet_int(); if (x == -5) reach_error(); return 0; }`, 1, "violation 1"},
		{"nondet char", `int main() { char x = __VERIFIER_nondet_char(); if (x == 200) reach_error(); return 0; }`, 1, "safe"},
		{"assume", `int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 10); if (x < 5) reach_error(); return 0; }`, 1, "safe"},
		{"abort halts all", `int g; void *t(void *a) { if (g == 1) reach_error(); return 0; } int main() { pthread_t h; pthread_create(&h, 0, t, 0); abort(); g = 1; return 0; }`, 4, "safe"},
		{"abort inside an atomic section", `void __VERIFIER_atomic_check(int x) { if (x) { abort(); reach_error(); } } int main() { __VERIFIER_atomic_check(1); return 0; }`, 2, "safe"},
		{"failed assume inside an atomic section", `int g; int main() { __VERIFIER_atomic_begin(); __VERIFIER_assume(g == 1); reach_error(); __VERIFIER_atomic_end(); return 0; }`, 2, "safe"},
		{"main's return halts", `int g; void *t(void *a) { if (g == 1) reach_error(); return 0; } int main() { pthread_t h; g = 1; g = 0; pthread_create(&h, 0, t, 0); return 0; }`, 4, "safe"},
		{"assert.h's assert", `extern void __assert_fail(const char *, const char *, unsigned int, const char *); int g; void *t(void *a) { if (g == 1) reach_error(); return 0; } int main() { pthread_t h; int x = 1; pthread_create(&h, 0, t, 0); ((x == 2) ? (void)0 : __assert_fail("x == 2", "prog.c", 1, "main")); g = 1; return 0; }`, 4, "safe"},
		{"statement expression", `int main() { int x = 2; ({ if (x == 2) reach_error(); }); return 0; }`, 1, "violation 1"},
		{"__VERIFIER_error", `int main() { __VERIFIER_error(); return 0; }`, 1, "violation 1"},
		{"lost update", `int c; void *w(void *a) { c = c + 1; return 0; } int main() { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); pthread_join(a, 0); pthread_join(b, 0); if (c != 2) reach_error(); return 0; }`, 5, "violation 5"},
		{"join waits", `int c; void *w(void *a) { c = 1; return 0; } int main() { pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); if (c != 1) reach_error(); return 0; }`, 4, "safe"},
		{"mutex", `int c; pthread_mutex_t m; void *w(void *a) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); return 0; } int main() { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); pthread_join(a, 0); pthread_join(b, 0); if (c != 2) reach_error(); return 0; }`, 6, "safe"},
		{"atomic section", `int c; void *w(void *a) { __VERIFIER_atomic_begin(); c = c + 1; __VERIFIER_atomic_end(); return 0; } int main() { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); pthread_join(a, 0); pthread_join(b, 0); if (c != 2) reach_error(); return 0; }`, 6, "safe"},
		{"atomic function", `int c; void __VERIFIER_atomic_inc(int *p) { *p = *p + 1; } void *w(void *a) { __VERIFIER_atomic_inc(&c); return 0; } int main() { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); pthread_join(a, 0); pthread_join(b, 0); if (c != 2) reach_error(); return 0; }`, 6, "safe"},
		{"arguments before the atomic call", `int g, h; void __VERIFIER_atomic_check(int v) { if (v == 0 && g == 2) reach_error(); } void *t(void *a) { g = 1; h = 1; g = 2; return 0; } int main() { pthread_t x; pthread_create(&x, 0, t, 0); __VERIFIER_atomic_check(h); return 0; }`, 4, "violation 3"},
		{"trylock", `pthread_mutex_t m; int main() { pthread_mutex_lock(&m); if (pthread_mutex_trylock(&m) != 0) reach_error(); return 0; }`, 1, "violation 1"},
		{"pthread_exit", `int g; void *w(void *a) { pthread_exit(0); g = 1; return 0; } int main() { pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); if (g == 1) reach_error(); return 0; }`, 4, "safe"},
		{"cond wait may wake", `pthread_mutex_t m; pthread_cond_t cv; int ready; void *w(void *a) { pthread_mutex_lock(&m); pthread_cond_wait(&cv, &m); if (!ready) reach_error(); pthread_mutex_unlock(&m); return 0; } int main() { pthread_t a; pthread_create(&a, 0, w, 0); return 0; }`, 3, "violation 2"},
		{"shared reads split", `int x, y; void *w(void *a) { x = 1; y = 1; return 0; } int main() { pthread_t a; pthread_create(&a, 0, w, 0); if (y == 1 && x == 0) reach_error(); return 0; }`, 4, "safe"},
		{"switch promotes", `int main() { char c = -56; unsigned char u = 0; switch (c) { case 200: reach_error(); } switch (u) { case 256: reach_error(); } switch (c) { case -56: u = 1; } if (u == 1) reach_error(); return 0; }`, 1, "violation 1"},
		{"switch on char misses an out-of-range case", `int main() { char c = -56; unsigned char u = 0; switch (c) { case 200: reach_error(); } switch (u) { case 256: reach_error(); } return 0; }`, 1, "safe"},
		{"narrow constant sign-extends", `int main() { int x = 0; if ((char)200 + x == -56) reach_error(); return 0; }`, 1, "violation 1"},
		{"tail returns in an inlined function", `int g; int h(void) { return 4; } int __VERIFIER_atomic_f(int x) { g = h(); if (x) { g = g + 1; return 1; } else { return 2; } } int main() { if (__VERIFIER_atomic_f(1) == 1 && g == 5) reach_error(); return 0; }`, 2, "violation 1"},
		{"a local hides a global of its name", `int x, y; void *w(void *a) { x = 1; y = 1; return 0; } int main() { pthread_t a; pthread_create(&a, 0, w, 0); { int x = 5; } if (x == 0 && y == 1) reach_error(); return 0; }`, 4, "violation 3"},
		{"reads in order", `int x, y; void *w(void *a) { x = 1; y = 1; return 0; } int main() { pthread_t a; pthread_create(&a, 0, w, 0); if (x == 0 && y == 1) reach_error(); return 0; }`, 4, "violation 3"},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			check(t, tc.src, tc.k, tc.want)
		})
	}
}

// Constructs the reader refuses come back as *diag.Unsupported with a
// position.
func TestUnsupported(t *testing.T) {
	for _, tc := range []struct{ src, what string }{
		{`int main() { float f = 1.5; return 0; }`, "floating point"},
		{`struct s { int a; }; struct s v; int main() { v.a = 1; return 0; }`, "structs"},
		{`int *p; int main() { int x; p = &x; return 0; }`, "pointer"},
		{`long long x; int main() { x = 1; return 0; }`, "64-bit"},
		{`int f(int x) { return x; } int main() { int (*g)(int) = f; return g(1); }`, "pointer"},
		{`void *w(void *a) { int *p = a; return 0; } int main() { pthread_t t; int x; pthread_create(&t, 0, w, &x); return 0; }`, "thread argument"},
		// A return inside a branch, followed by more of the function: the
		// inlined body would run on after it.
		{`int g; void __VERIFIER_atomic_f(int x) { if (x) { if (g == 0) return; g = 5; } } int main() { __VERIFIER_atomic_f(1); if (g == 5) reach_error(); return 0; }`, "a return before the end of __VERIFIER_atomic_f"},
		// Called, not started, w's pthread_exit would end main's thread.
		{`void *w(void *a) { pthread_exit(0); } int main() { pthread_t t; pthread_create(&t, 0, w, 0); w(0); reach_error(); return 0; }`, "pthread_exit in w, which is also called"},
	} {
		_, err := c.Read("prog.c", []byte(header+tc.src), c.Options{})
		var u *diag.Unsupported
		require.True(t, errors.As(err, &u), "%s: %v", tc.src, err)
		require.Contains(t, u.Error(), tc.what)
		require.True(t, u.Pos.IsValid(), "%s: no position", u)
	}
}

// A program that does not type-check is an error in the input with its
// position.
func TestInputError(t *testing.T) {
	_, err := c.Read("prog.c", []byte("int main() { return y; }"), c.Options{})
	var list diag.ErrorList
	require.True(t, errors.As(err, &list), "%v", err)
	require.Equal(t, 1, list[0].Pos.Line, "%v", err)
}
