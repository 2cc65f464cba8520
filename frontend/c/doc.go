// Package c reads C programs with pthreads, as SV-COMP's ConcurrencySafety
// tasks hold them (a preprocessed .i, or a .c whose includes are found),
// into a pushdown network: globals to globals, each function's parameters
// and locals to its frame, calls to pushes, pthread_create to thread
// creation. The jMoped paper (Suwimonteerabuth, Esparza and Schwoon,
// SPIN 2008, section 4.2, "The Translator") reads Java bytecode the same
// way: the program's own stack stays a stack, so recursion and unbounded
// loops need no unrolling, and a proof for every number of contexts is a
// proof of the program.
//
// # Reading
//
// modernc.org/cc/v4 preprocesses, parses and type-checks the input with
// a configuration built here, not taken from the host's compiler: the ABI
// of the task's data model (ILP32, the category's and the default, as
// linux/386; LP64 as linux/amd64) and the macros a compiler predefines
// for it (__SIZE_TYPE__ and the __UINTn_TYPE__ family ahead of
// cc.Builtin). A .i needs no C compiler; a .c finds its includes in the
// input's directory, Options.IncludePaths and the system's directories.
// A program that does not parse or type-check is an error in the input,
// with cc's positions.
//
// # Lowering
//
// The typed program is lowered to the syntax tree of the .pds front end
// (package frontend, which then checks and compiles it with
// frontend.CompileTree), using the nodes only readers build: C's
// operators with their signed forms, conversions, conditionals. Every
// position in the tree is a position in the C input, so a trace names C's
// lines. Only main and the functions reachable from it (by calls and by
// pthread_create) are lowered.
//
//   - Types: _Bool is bool; char, short, int, long and long long, signed
//     or unsigned, and enums are integers of their width in the data
//     model, kept as two's complement bit vectors. + - * and the bitwise
//     operators are the same on both readings; / % >> and the orderings
//     take their signed forms on signed types. C's integer promotions and
//     usual arithmetic conversions are applied as cc's types say, each as
//     an explicit conversion (truncation, zero or sign extension). Signed
//     overflow wraps around (two's complement): C leaves it undefined; the
//     tasks of the category do not rely on it. Division by zero is an error
//     of its own kind (pds.DivZero), not the property's error. A 64-bit
//     type is refused.
//   - Objects: globals (their tentative and actual definitions merged),
//     locals and parameters, one-dimensional arrays of integers or bools
//     (global or local; an index out of range is an error of kind bounds).
//     A local without initializer starts at 0 (C leaves it indeterminate;
//     reading it is undefined). Pointers are followed in three places
//     only: &m of a global mutex in the pthread calls, &t of the thread id
//     in pthread_create, and a pointer parameter of a function inlined
//     into an atomic section, bound to the &x its call passes.
//   - Control: if, while, do, for, switch (a jump per case label, on the
//     promoted value), goto, break, continue, return, calls with values,
//     recursion. A function inlined into an atomic section may return
//     only at its end (a return elsewhere is refused).
//   - The verifier's functions: reach_error and __VERIFIER_error are the
//     error (SV-COMP's unreach-call names reach_error; older inputs call
//     __VERIFIER_error, which the same property meant when they were
//     written); __VERIFIER_nondet_* returns any value of its type;
//     __VERIFIER_assume(c) with c false ends the run (the whole program
//     halts), as do abort, exit, assert.h's failed assert
//     (__assert_fail, reached through assert's expansions: a conditional
//     of type void or a statement expression), and main's return; __VERIFIER_atomic_begin() ...
//     __VERIFIER_atomic_end() in one block, and a call of a function whose
//     name starts with __VERIFIER_atomic_, are one step (the function
//     inlined; a loop inside is refused).
//   - pthreads: pthread_create starts the function (its argument must be
//     unused), pthread_join waits until the thread has returned (the
//     thread ids are kept only when the program joins), pthread_exit
//     returns from the thread's start function, mutex lock (one step that
//     waits until the mutex is free and takes it), unlock, trylock, init
//     and destroy on global mutexes, pthread_cond_wait as unlock then lock
//     (POSIX allows a wait to wake at any time, so this is all it may be
//     relied on to do), signal and broadcast as nothing.
//
// The halt is a global that every rule requires clear
// (frontend.Options.Halt): once a step sets it, no thread moves, as after
// the process ended.
//
// # Steps
//
// Interleaving is sequential consistency at the level of shared memory
// accesses. A statement (or controlling expression) that touches shared
// memory at most once runs as one step: the step is that access plus
// computation on the thread's own locals, which no other thread can see
// or change, so running it with the access gives the same interleavings
// as running it apart. A statement that touches shared memory more than
// once is split: each read of a global is a step of its own into a fresh
// local, in C's evaluation order (left to right, && || and ?: only where
// evaluated), and the write is the last step. So x = x + 1 by two
// threads can lose an update.
//
// # Refused
//
// Anything else is refused with *diag.Unsupported, which the command
// answers unknown, naming the construct and its position: floating point,
// structs and unions (but mutexes), pointers other than the three uses
// above (malloc included), 64-bit integers, static locals, function
// pointers, inline assembly, a thread argument the thread reads, thread
// attributes, atomic sections that span blocks, loops inside atomic
// sections, and library functions other than the ones named here and
// printf and its kin (no effect).
package c
