// Package bp reads concurrent Boolean programs, in the dialect of Bebop
// and Boppo as SATABS (CPROVER) writes them and in the dialect of
// Getafix, and compiles them into a pushdown network (package pds).
//
//	net, err := bp.Read("prog.bp", src, pds.Options{MaxThreads: 4})
//
// MaxThreads bounds only a program that can start unboundedly many threads
// (a start_thread in a loop, behind a backward goto or in recursion):
// threads.go counts the threads a program can have on its labels before
// the layout is fixed (pds.Flow), and a finite count is the network's
// thread bound unless MaxThreads is lower.
//
// On bad input the error is an [ErrorList] (pds/diag's): positioned
// errors "file:line:col: message", sorted, at most ten and then "too many
// errors (N more)". Parse errors are reported before name errors (a file
// that does not parse is not checked). Read never panics on any input
// (FuzzRead); a failure of the compiler itself is returned as an
// "internal error".
//
// The grammar was written for this package from the descriptions of the
// dialects and from reading the grammars of Getafix (bp.y), Moped's
// Boolean-program input and the Boolean programs SATABS prints; no code
// was taken from them.
//
// # The language
//
//	program = { "decl" var { "," var } ";" } { proc } .
//	var     = name [ ":=" ( "0" | "1" | "T" | "F" | "*" ) ] .
//	proc    = ( "void" | "bool" | "bool" "<" n ">" ) name "(" [ names ] ")"
//	          "begin" { "decl" var { "," var } ";" } { stmt } "end" .
//	stmt    = { label ":" } (
//	            "skip" ";" | "dead" names ";"
//	          | names ":=" exprs [ "constrain" expr ] ";"
//	          | [ names ":=" ] name "(" [ exprs ] ")" ";"
//	          | "goto" label { "," label } ";" | "return" [ exprs ] ";"
//	          | "assume" "(" expr ")" ";" | "assert" "(" expr ")" ";"
//	          | "if" expr "then" stmts { "elsif" expr "then" stmts } [ "else" stmts ] "fi" [ ";" ]
//	          | "while" expr "do" stmts "od" [ ";" ]
//	          | "start_thread" "goto" label ";" | "end_thread" ";"
//	          | "atomic_begin" ";" | "atomic_end" ";" ) .
//	expr    = "0" | "1" | "T" | "F" | "*" | "?" | name | "'" name
//	          | "schoose" "[" expr "," expr "]" | "(" expr ")"
//	          | ( "!" | "~" ) expr | expr op expr .
//
// Names are letters, digits, _, $ and @ (SATABS writes c$$main and b0$),
// or Getafix's braced names such as {x < y}; labels are names or numbers.
// Comments are // and /* */. The binary operators, from the lowest
// precedence: => (to the right), | (also ||), ^, & (also &&), = and !=;
// the unary ! and ~ bind tightest. Every variable is a bool; bool<n> is
// allowed only as the result type of a procedure returning n values.
//
// # Semantics
//
//   - Globals and locals hold any value at the start (on entry to a
//     procedure for locals) unless decl gives a constant; * keeps any
//     value.
//   - Every * in an expression is a choice of its own; schoose[a, b] is
//     true when a holds, else false when b holds, else either. 'x, in a
//     constrain clause only, is the value x is assigned; the assignment
//     happens only when the clause holds.
//   - goto L1, L2 chooses one of its labels. if and while evaluate their
//     condition as one step (each elsif condition after the previous ones
//     failed, in the same step). assume(e) blocks while e fails;
//     assert(e) reaching a false e is an error. dead is a skip.
//   - Falling off the end of a procedure returns arbitrary values.
//   - Boppo's dialect: the program runs main in thread 0. start_thread
//     goto L starts a thread at label L of the current procedure with a
//     copy of the current frame's locals (the parent goes on with the next
//     statement); that thread ends when it returns from that frame.
//     end_thread ends the current thread. Between atomic_begin and
//     atomic_end no other thread runs.
//   - Getafix's dialect, chosen when the first procedure is named init:
//     init runs first, in thread 0, to its end; every later procedure is a
//     thread of its own (thread i runs the i-th procedure) that starts
//     once init has returned. init is an initialisation, not a context
//     (see "Getafix's init" below). While the globals atomic or
//     super_atomic hold, no other thread runs than the one that set them.
//     Reaching the label SLIC_ERROR is an error; init cannot be called.
//
// # Refused, with an error at the construct
//
// bool<n> variables, enforce, print, abortif and sync, start_thread of a
// procedure (start_thread f()), start_thread goto with more than one
// label, constants other than 0 and 1, calls inside expressions, 'x
// outside constrain, parameters of main, init and Getafix threads,
// start_thread in Getafix's init or a procedure it calls (init runs to its
// end before any thread starts), and a program without main (or init
// first).
//
// # Compilation (each construct and its pds rules)
//
// Every global is a pds.Global of type bool; every procedure a pds.Proc
// with its parameters, then its locals (bool), then, when the program
// has an atomic lock, the hidden local $held; bool<n> results are an
// int<n> result, value i in bit i of the return register. Each statement
// gets a label named after its line ("main.L12", then "main.L12#2"), and
// the end of a procedure "main.end".
//
// An expression compiles to two BDDs over the current copies, when it can
// be true and when it can be false (they overlap where it depends on a
// *); an assignment x := e is (x' ∧ canTrue(e)) ∨ (¬x' ∧ canFalse(e)).
// Every relation keeps the variables it does not write.
//
//	skip; dead; x, y := e1, e2 constrain c;   a step to the next statement
//	goto L1, L2;                              a step to each label
//	if/elsif/else, while                      one step per branch, guarded by
//	                                          its condition (the loop's test
//	                                          is its label; the body steps back)
//	assume(e); assert(e);                     a step when e can hold; for
//	                                          assert a step to an error label
//	                                          (kind Assert, the source text)
//	                                          when it can fail
//	f(args); x, y := f(args);                 a push: the callee's parameters
//	                                          set, the caller's locals saved; its
//	                                          own return label "L12.ret" whose
//	                                          receive relation stores the
//	                                          results, then a step to the next
//	return e1, e2; end of the procedure       a pop writing the return register
//	start_thread goto L;                      a fork of the copy of the procedure
//	                                          "main@L" whose entry is L, the
//	                                          child's locals equal to the parent's
//	end_thread;                               a step to a label without rules
//	atomic_begin; atomic_end;                 a step setting or clearing the
//	                                          hidden global $atomic
//	SLIC_ERROR: (Getafix)                     an error label; nothing runs from it
//
// No context switch while the lock is held: the lock is $atomic (Boppo),
// or atomic and super_atomic (Getafix). Every rule of every thread is
// guarded by "the lock is off or $held", and sets $held' to the value of
// the lock after the step; so only the thread that took the lock can move
// while it holds. A call passes $held to the callee, the receive relation
// of the return point recomputes it, a forked thread starts with $held
// false. The network is exact: a context switch to a blocked thread is
// a context without steps, never needed for the fewest contexts.
//
// # Getafix's init
//
// No thread runs before init has returned, so no schedule chooses init's
// run: it is an initialisation, and the count of contexts starts with the
// first thread's context. Read builds the network with init in thread 0
// at its entry (with $held true, so that it runs whatever the lock's
// initial value) and every thread at its procedure's entry, computes one
// post* of thread 0 alone (package symauto; under ReadWith's context and
// limits), and returns the network whose initial configurations are
// init's final states ([pds.Network.WithInitial]): the globals under
// which init has returned, as a relation over the globals
// ([pds.InitGlobals], By "init"), thread 0 finished (an empty stack), the
// other threads at their entries. Every engine reads the initial
// configurations from the network, so all of them, and the reference
// semantics, agree; a trace starts after the initialisation ("initialisation
// by init (before context 1)"). In --engine seq, init takes no round.
//
// When an error is reachable inside init (SLIC_ERROR, a failed assert, in
// init or in a procedure it calls), the initial configurations are instead
// those where init has reached the first such label, in label order:
// thread 0 at that label with any locals, under the globals post* found
// there, and every other thread at a label "P.wait" without rules (it
// never starts). Every engine reports that failure with 0 contexts (0
// rounds), as a violation before context 1; the threads' own violations
// are then not searched for, and a second label reachable inside init is
// not reported.
//
// How the count relates to Getafix's bounds. Getafix (La Torre,
// Madhusudan and Parlato, "Analyzing recursive programs using a
// fixed-point calculus", PLDI 2009) checks errors reachable within a
// bounded number of context switches; a run with k switches has k+1
// contexts in cbreach's count, init being neither. Their "Reducing
// context-bounded concurrent reachability to sequential reachability"
// (CAV 2009) bounds rounds of round-robin scheduling, each round one
// context of every thread in a fixed order: cbreach's --engine seq counts
// those rounds (k rounds hold at most n·k contexts of n threads; c
// contexts fit in c rounds).
//
// # Testing
//
// TestSemantics runs small programs on the explicit reference semantics
// (pds/explicit); TestCorpus runs the Boolean programs of
// benchmarks/boolean under the symbolic engine (eager and lazy) and the
// explicit reference against their EXPECTED lines; TestBluetooth compares
// the Bluetooth driver written as a Boolean program with the .pds models
// of benchmarks/models; TestDifferential translates random Boolean
// programs to the .pds language, compiles the translation with
// frontend.Compile and compares both networks' reachable global states
// with their fewest contexts on pds/explicit; TestGetafixEngines and
// TestFibonacciEngines run the Getafix programs of TestSemantics and of
// benchmarks/boolean on every engine (cbr eager and lazy, the explicit
// engine, pds/explicit, the sequential reduction) and compare their
// sites, fewest contexts and traces; FuzzRead feeds Read arbitrary bytes.
package bp
