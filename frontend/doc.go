// Package frontend compiles the .pds modelling language (docs/language.md) into
// a pushdown network (package pds).
//
//	net, err := frontend.Compile("model.pds", src)
//
// On bad input the error is an [ErrorList]: positioned errors sorted by
// position, printed one "file:line:col: message" per line, at most ten (then
// a last "too many errors (N more)" entry) unless [Options].AllErrors asks
// for all. Any other error is a failure of the BDD layer (a node limit set
// in Options.BDD) or, wrapped as "internal error", a bug.
//
// # Phases
//
// One package per phase, after the layout of Go's own front end (go/token,
// go/scanner, go/parser, go/ast, go/types):
//
//	frontend/token    tokens; compact positions (Pos, a byte offset + 1) and
//	                  the File that expands them to a Position (file:line:col)
//	frontend/scanner  tokens from bytes (a byte-order mark at the start of
//	                  the file is skipped)
//	frontend/ast      the syntax tree: data only, every node has Pos and End;
//	                  Walk and Inspect traverse it in source order
//	frontend/parser   recursive descent with one token of lookahead; always a
//	                  tree (Bad nodes where input is missing), at most 10
//	                  errors and one per line unless all are asked for,
//	                  nesting capped so that no input exhausts the stack
//	frontend/types    the checker: scopes, types, constants, control flow
//	frontend          this package: the compiler from the checked tree to pds
//
// The phases up to the checker, and the interpreter of the tests, know
// nothing of BDDs or networks: they import neither pds nor bdd.
//
// Parsing and checking never panic on any input (FuzzParse, FuzzCompile).
// The compiler runs only on a file without errors; it may panic only on a
// broken invariant of the checker's tables.
//
// # Positions and errors
//
// A tree node holds a token.Pos, one int: its byte offset in the file plus
// one (0 is unknown). The token.File of the source keeps the offsets of
// line starts, filled by the scanner, and expands a Pos to a
// token.Position (file, line, column in bytes) by binary search, only when
// an error is reported or the compiler records where a rule or label comes
// from. token.Position is the module's one expanded position type
// (pds/diag.Pos), the same type as pds.Pos, so the compiler hands it
// to the network as it is.
//
// Every phase reports into one list type, [ErrorList] (pds/diag's,
// also named scanner.ErrorList, cuba.ErrorList and pds.ErrorList): the
// parser and the checker Add errors as they meet them, and [Compile] sorts
// the list by position (duplicates removed) and truncates it to ten. An
// embedder finds it with errors.As whichever reader failed.
//
// # Side tables
//
// The checker never changes the tree; it fills a types.Info:
//
//	Types    every expression -> its type and, if constant, its exact value
//	         (go/constant); an untyped constant used where a type is needed
//	         is recorded with that type (at the root of the constant
//	         subexpression)
//	Defs     declaring identifiers -> objects (Const, TypeName, Var, Proc,
//	         Label); Uses: every other identifier -> its object
//	Specs    declarators -> variables; Targets: break/continue -> their
//	         while, goto -> its labeled statement
//	Globals, Procs (with Params and Locals in declaration order), Enums,
//	Starts (top-level start statements), Spawned (procedures some start
//	inside a procedure runs)
//
// The compiler reads the tree and these tables only; so does the
// interpreter of the tests (frontend/internal/interp), which never looks at
// the compiler.
//
// # Choices the language leaves open
//
//   - Widths are computed bottom-up: an arithmetic node has the width of the
//     wider of its operands, an untyped constant operand takes the width of
//     the other operand and must fit it. So with int<1> b and int<4> w,
//     (b + 1) + w wraps b + 1 in one bit first. Constant subexpressions are
//     folded exactly (go/constant, unbounded), and a negative intermediate
//     is fine as long as the value used fits: 0 - 1 used as an int is an
//     error, x + (2 - 1) is x + 1.
//   - Assignments, initializers, arguments and returned values truncate
//     integers to the target width (a constant must fit instead); enums
//     need the same enum, booleans booleans.
//   - Evaluation order: right-hand sides left to right, then the indices of
//     the targets left to right, then the stores in order (in a parallel
//     assignment to a[i], a[j] with i == j the later store wins); the same
//     variable, or the same array with equal constant indices, twice on the
//     left is an error. The first index out of range in this order is the
//     bounds error reported.
//   - A constant index is checked at run time like any other (a negative
//     constant index is a compile-time error).
//   - T a, b = e; is sugar for T a; T b = e;: one step per declarator.
//   - Parameters may have the name of a global (locals may not); every
//     local and parameter of a procedure is a distinct variable of its
//     frame, even when two locals in disjoint blocks share a name (the
//     network names the second one "x#2").
//   - break, continue and goto are steps of their own (with no effect), like
//     skip.
//   - A constant may not refer to a variable, and constants may be declared
//     in any order (a cycle is an error). Enum values are constants of their
//     enum type, in the one top-level namespace.
//
// # Nodes only readers build
//
// Another reader (the C reader, frontend/c) hands [CompileTree] a tree
// that may hold nodes the .pds language does not spell: C's operators
// (token.QUO / REM AND OR XOR SHL SHR in an ast.BinaryExpr, with its
// Signed flag; token.TILDE in an ast.UnaryExpr), ast.ConvExpr and
// ast.CondExpr. The checker, the compiler (ordinary steps, both ways of
// compiling atomic bodies) and the interpreter of the tests implement them
// with one meaning:
//
//   - Typing. The operands of & | ^ / % are integers of one width (an
//     untyped constant takes the other's width and must fit it, as for +)
//     or, for & | ^, two bools; the result has that type. A shift has the
//     type of its left operand, which must have a width; the count is an
//     integer of any width or an untyped constant (not negative). ~ keeps
//     the width. Signed orderings type as the unsigned ones (operands of
//     different widths are each sign-extended). A conversion takes an
//     integer or a bool (not an enum) to int<Width>, 1 <= Width <= 32, or
//     to bool for Width 0; a conditional needs a bool condition and two
//     branches of one type (two ints of one width, two bools, one enum; two
//     untyped constants only when the whole is constant).
//   - Values. Integers are unsigned; Signed makes QUO, REM, SHR and the
//     orderings LSS, LEQ, GTR, GEQ read both operands as two's complement
//     of their width: division truncates toward zero, the remainder has the
//     dividend's sign, SHR shifts the sign in. The most negative value
//     divided by -1 wraps around: the quotient is that value, the
//     remainder 0 (as in Go). A shift by the width or more gives 0 (SHL,
//     unsigned SHR) or all sign bits (signed SHR); C leaves it undefined,
//     and the C reader may check it itself. A conversion keeps the low
//     bits when narrowing and extends with zeros, or with the sign bit when
//     Signed (the source read as signed), when widening; a bool converts to
//     0 or 1 (Signed or not), and a conversion to bool is X != 0.
//   - Evaluation. Operands left to right, then the operator. Dividing
//     (/ or %) by zero is an error the program reaches, like an index out of
//     range: a dead end at an error label of kind pds.DivZero ("division by
//     zero"), named "proc.L<line>.div", at the position of the operator,
//     with the message "division by zero: <source text>". It is carried
//     like a bounds error everywhere (errCase, the conditions of && and ||,
//     atomic bodies with the state reached so far, $oob for a[i] = f()
//     counts divisions of the index too). In c ? a : b only the chosen
//     branch is evaluated: an error in the other does not happen.
//   - Constants. Constants without a width (the .pds language's) are
//     computed exactly, also by the new operators (division truncates;
//     dividing by a zero constant is a compile-time error, a shift of such
//     a constant needs a constant count, at most 512 for <<). A conversion
//     of a constant is a constant with a width (its value wrapped to it),
//     and an operation on a constant with a width and another constant is
//     computed as the program would, modulo 2^width, except a division by
//     a zero constant, which stays for the program to reach. A constant
//     with a width may be wider than the variable it initializes or the
//     parameter it is passed to: it is truncated, like any value. A
//     conditional is constant when its condition and both branches are.
//   - Circuits (package bdd, vec.go). Conversions and shifts by a constant
//     count are wiring (no new BDD nodes); a shift by a variable count is a
//     barrel shifter, one multiplexer stage per bit of the count below
//     log2(width); / and % a restoring divider, whose BDDs, like those of
//     *, grow fast with the width of two variable operands (values computed
//     from constants, as in atomic bodies, stay small); signed division
//     divides the magnitudes and negates.
//
// Tests spell these nodes with parser.COperators, a parser mode for
// readers' tests that the .pds reader never sets: C's operators at C's
// precedence, the signed operators /s %s >>s <s <=s >s >=s (an s right
// after the operator, not followed by a letter, digit or _), c ? a : b,
// and the conversions (int<8>) x, (sint<8>) x (x sign-extended) and
// (bool) x.
//
// # Compilation
//
// Declarations first (the Builder's first phase): one pds.Global per global
// scalar and per array element (named "a[0]", "a[1]", ...), with its initial
// value or Init{Any: true} for = ?; per procedure its parameters, then every
// local in declaration order (arrays element by element), then the hidden
// local $oob when needed (below); every procedure some start inside a
// procedure may run is declared spawnable. Then the layout is fixed
// (Builder.Manager), every procedure's control points get labels in source
// order ("main.L12", "main.L12c9" for a second point on line 12, "main.end"),
// and the rules are added. Top-level starts become threads "thread0",
// "thread1", ... with their constant arguments.
//
// Each statement compiles to rules from its label; next is the label of the
// statement that follows it (the end label after the last one; the loop's
// test after a loop body). All relations keep every variable they do not
// write (n.Unchanged, n.LocalsUnchanged). A rule whose relation is empty is
// not added.
//
//	skip; break; continue; goto L;   step to next / the loop's exit / its
//	                                 test / L's first point; nothing changes
//	x, a[i] = e1, e2;                one step: the stores (a multiplexer per
//	                                 element for a[i]); steps to bounds error
//	                                 labels where an index is out of range
//	x = ?;                           one step, x' any valid value
//	T x; T x = e; T x = ?;           like assignments (T x; stores 0)
//	if (c) / while (c)               the test is a step of its own: to the
//	                                 branch's first point when c holds, to
//	                                 the other when not (both for ?)
//	assert(c); assume(c);            step to next when c holds; for assert,
//	                                 a step to its error label when it fails
//	atomic { ... }                   one step whose relation is the whole
//	                                 body (below), plus one step per error
//	                                 label the body can reach
//	f(args); x = f(args);            a push rule: the callee's entry with its
//	T x = f(args);                   parameters set and its other locals 0,
//	                                 the caller's locals saved unchanged; the
//	                                 return point receives the value
//	return e; return; (falling off)  a pop rule with the return register
//	                                 R = e (R = 0 without a value or at the
//	                                 end); globals unchanged
//	start f(args);                   a fork rule (the child's locals in L'')
//
// Expressions are evaluated into bit vectors over the current copies
// (bdd.Vec), together with the list of errors the evaluation may meet
// (bounds errors, and divisions by zero of the nodes only readers build),
// each with the condition under which it is the first; && and || guard the
// errors of their right operand with the value of the left, so
// i < 4 && a[i] never reports one (and c ? a : b those of each branch with
// the condition). An index gets a bounds error only if some value of its
// width is out of range.
//
// # The BDD order
//
// The layout interleaves the bits of variables by significance (package
// bdd, "Layout"), which keeps x == y, x' = y + 1 and x < y linear in the
// width, but k variables incremented in one relation (an atomic block, or
// a summary of a thread's run, which relates current values to the
// values at entry) then keep k carries open at every bit boundary: 2^k
// nodes a level. Ordering one variable after the other fixes that but
// makes a copy x = y 2^W wide. So the compiler orders by the program's
// relation graph (order.go): a union-find over the globals puts two
// globals into one cluster when an expression combines them bit by bit
// (the operands of +, -, *, ==, !=, <, <=, >, >= and of C's operators;
// the branches of a conditional; an assignment's target and the variables
// its value carries; an array and its index), and the
// clusters become the layout's order groups (pds.Global.Group,
// bdd.Layout.Group), one after the other, numbered by their first global
// in declaration order. Comparisons, && and || yield one bit and carry no
// variable's bits further, so assert(g1 == g2 || g3 == g4) makes two
// clusters.
//
// Every local and parameter, the return register and the thread slots'
// hidden globals are one node of the graph: they share the local block
// (pds, "The model"), whose slots are reused by every procedure, so they
// stay in one group (Builder.LocalGroup), and a global copied to or from a
// local, passed as an argument or returned joins it. The locals' group
// takes the place of its first global, or comes last without one. A
// program whose globals all meet locals therefore keeps the order by
// significance across all variables; one whose globals are related only
// to each other (dozens of open globals, each incremented or copied) gets
// one group per cluster. On family A of issue 38 (docs/benchmarks.md,
// "Many open globals") the groups are {g0, g(N-1)}, {g1, g2}, {g3, g4},
// ...
//
// The order never changes a verdict or a fewest count (the differential
// tests compile with it), but the lazy split takes the least element of
// each class in the BDD order (package split), so its view tuple counts
// may differ from those of the order by significance (on the Bluetooth
// models, before Booleans joined the first group: 420 or 422 tuples, 13
// or 11). The published models relate every wide global to a local, so
// they keep the order by significance (TestOrderPublishedModels).
//
// # Return values and return points
//
// The value of x = f(args) is stored as part of the return step (docs/design.md,
// "Return values"): the return point label carries a receive relation
// (Builder.SetRecv) Recv(G, R, L, G', L') that writes R, cut or widened to
// x's type, into x (a local: L' = L but x; a global: G' = G but x). The
// return point is the label of the next statement itself when that label
// receives the same way (or not at all, for a call without target);
// otherwise the call gets a return label of its own ("main.L7.ret") with a
// step that does nothing to next.
//
// a[i] = f(args) evaluates i at the return, with the globals as the callee
// left them. A receive relation cannot branch to an error label, so the
// call always gets its own return label r, and the hidden local $oob (wide
// enough to number the index expressions of the target) records what
// happened: when every index is in range, Recv stores the element and sets
// $oob = 0; when the k-th index expression to fail is out of range, Recv
// changes nothing but $oob = k. The only rules from r are a step to next
// when $oob = 0 and, for each k, a step to that bounds error label when
// $oob = k, changing nothing. Reaching the error one step later is exact
// for reachability: the store never happens, the thread's only move is to
// the error (a dead end), and it can take that move in the same context.
// $oob is 0 everywhere else (0 at entry, written only by these receives).
//
// # Atomic bodies
//
// An atomic body is one relation, built by symbolic execution (sym.go):
// each path of the body holds, for every variable written so far, its value
// as a vector over the values at the start of the block, and a guard. An if
// on a condition merges its branches with if-then-else; if (?) keeps two
// paths; assume(c) conjoins c to the guard (a failing assume leaves no
// outcome: the block does not fire); assert(c) and bounds errors add, for
// their error label, the relation of the state reached so far. x = ? gives
// x the value x' itself (constrained to be valid), exact as long as x is
// not written again on the path; when it is, the body is compiled instead
// by sequential composition of its statements' relations through the
// scratch copies (pds.GScratch, pds.LScratch) as the intermediate state (composeOutcome), which
// is exact in every case but slower.
//
// # Threads
//
// Top-level starts are initial threads; start inside a procedure is a fork
// rule whose child is spawnable with its parameters only (the other locals
// start at 0, so the thread slots carry the arguments alone). Before the
// layout is fixed, threads.go counts the threads the program can have on
// the statements' control flow (pds.Flow: starts summed in sequence, the
// largest branch, calls multiplied through, started threads' starts
// included; unbounded for a start in a loop, behind a backward goto or in
// recursion) and tells the builder (Builder.ProgramThreads): a finite count
// is the network's thread bound unless Options.MaxThreads is lower, which
// otherwise bounds only unbounded programs. pds.Network.WithThreadSlots
// turns forks into slot wake-ups for the symbolic engine.
//
// # Testing
//
// The nodes only readers build have tests of their own (cops_test.go):
// every operator, conversion and conditional on every pair of 1-, 3- and
// 4-bit operands and on random and edge 8-, 16- and 32-bit ones, compiled
// and interpreted, against Go's arithmetic; the checker's errors; and a
// random differential campaign whose programs use them
// (TestDifferentialRandomC, larger with CBREACH_LONG=1).
//
// testdata/errors holds one invalid program per error class with
// /* ERROR "text" */ markers (TestErrors checks message and position);
// the valid programs of testdata and the benchmark models compile and
// validate (TestValid), a few print as in their golden files (TestGolden,
// -update rewrites them); semantic cases run on the explicit reference
// semantics (TestSemantics). The differential tests compile random
// programs covering the whole language (gen_test.go) and compare, on the
// explicit semantics of the network and on the interpreter of the checked
// tree, every reachable configuration (globals, and per thread each
// frame's procedure, control point and locals) with its fewest contexts;
// seeds are fixed and printed on failure (go test -run
// TestDifferentialRandom -seed N reruns one).
//
// The receive relation of a call of a procedure returning an enum
// restricts R to the enum's constants (pds.Network.Validate checks that no
// relation can produce an invalid code, and R is not among the current
// values it assumes valid).
package frontend
