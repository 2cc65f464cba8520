package pds

import "testing"

// TestFlowThreads counts the threads of small control flows: starts
// summed in sequence, the largest branch, calls multiplied through, the
// starts of started threads, and Unbounded under a loop or recursion
// (but not for a loop or a recursion that starts nothing).
func TestFlowThreads(t *testing.T) {
	const main, a, b, c = 0, 1, 2, 3
	cases := []struct {
		name string
		flow func(f *Flow)
		want int
	}{
		{"no start", func(f *Flow) { f.Step(main, 0, 1) }, 1},
		{"sequence", func(f *Flow) {
			f.Start(main, 0, 1, a)
			f.Start(main, 1, 2, a)
			f.Start(main, 2, 3, b)
		}, 4},
		{"branches", func(f *Flow) {
			f.Start(main, 0, 1, a) // one branch starts one thread
			f.Step(main, 0, 2)     // the other two
			f.Start(main, 2, 3, a)
			f.Start(main, 3, 1, a)
			f.Start(main, 1, 4, b) // both then one more
		}, 4},
		{"calls", func(f *Flow) {
			f.Call(main, 0, 1, a)
			f.Call(main, 1, 2, a)
			f.Start(a, 0, 1, b)
			f.Call(a, 1, 2, c)
			f.Start(c, 0, 1, b)
		}, 5},
		{"started threads", func(f *Flow) {
			f.Start(main, 0, 1, a)
			f.Start(a, 0, 1, b)
			f.Start(a, 1, 2, b)
			f.Start(b, 0, 1, c)
		}, 6},
		{"entry", func(f *Flow) {
			f.Entry(main, 2)
			f.Start(main, 0, 1, a) // not reachable from the entry
			f.Start(main, 2, 3, a)
		}, 2},
		{"loop without start", func(f *Flow) {
			f.Step(main, 0, 1)
			f.Step(main, 1, 0)
			f.Step(main, 1, 2)
			f.Start(main, 2, 3, a)
		}, 2},
		{"recursion without start", func(f *Flow) {
			f.Call(main, 0, 1, a)
			f.Call(a, 0, 1, b)
			f.Call(b, 0, 1, a)
			f.Start(main, 1, 2, c)
		}, 2},
		{"start in a loop", func(f *Flow) {
			f.Start(main, 0, 1, a)
			f.Step(main, 1, 0)
		}, Unbounded},
		{"call in a loop", func(f *Flow) {
			f.Call(main, 0, 1, a)
			f.Step(main, 1, 0)
			f.Start(a, 0, 1, b)
		}, Unbounded},
		{"start in recursion", func(f *Flow) {
			f.Call(main, 0, 1, a)
			f.Call(a, 0, 1, b)
			f.Call(b, 0, 1, a)
			f.Start(b, 1, 2, c)
		}, Unbounded},
		{"a thread starting itself", func(f *Flow) {
			f.Start(main, 0, 1, a)
			f.Start(a, 0, 1, a)
		}, Unbounded},
		{"a call of a recursion that starts", func(f *Flow) {
			f.Call(main, 0, 1, a)
			f.Call(a, 0, 1, a)
			f.Start(a, 1, 2, b)
		}, Unbounded},
	}
	for _, tc := range cases {
		f := &Flow{}
		tc.flow(f)
		if got := f.Threads(main); got != tc.want {
			t.Errorf("%s: got %d threads, want %d", tc.name, got, tc.want)
		}
	}
	// Two initial threads add up.
	f := &Flow{}
	f.Start(main, 0, 1, a)
	if got := f.Threads(main, main, a); got != 5 {
		t.Errorf("three initial threads: got %d threads, want 5", got)
	}
}

// forkNet builds main: start child; start child; with the builder told
// that the program has program threads (none: not told), under opts.
func forkNet(t *testing.T, opts Options, program *int) (*Network, error) {
	t.Helper()
	b := NewBuilder(opts)
	child := b.Proc("child", nil, Pos{})
	b.Label(child, "c0", Pos{})
	main := b.Proc("main", nil, Pos{})
	l0, l1, l2 := b.Label(main, "m0", Pos{}), b.Label(main, "m1", Pos{}), b.Label(main, "m2", Pos{})
	b.Spawnable(child)
	b.Thread("main", Call(main))
	if program != nil {
		b.ProgramThreads(*program)
	}
	m, n := b.Manager(), b.Net()
	b.Fork(l0, l1, child, n.Unchanged(), Pos{})
	b.Fork(l1, l2, child, n.Unchanged(), Pos{})
	_ = m
	return b.Build()
}

// TestThreadBound: the thread bound is the program's count when it is
// finite and no lower MaxThreads is given, else MaxThreads, else the
// default; a count below the rules' is a reader's bug that Build reports.
func TestThreadBound(t *testing.T) {
	three, unbounded, two := 3, Unbounded, 2
	cases := []struct {
		max     int
		program *int
		want    int
		source  ThreadSource
		bounded bool
	}{
		{0, &three, 3, ThreadsFromProgram, false},
		{5, &three, 3, ThreadsFromProgram, false},
		{3, &three, 3, ThreadsFromProgram, false},
		{2, &three, 2, ThreadsFromOption, true},
		{0, &unbounded, DefaultMaxThreads, ThreadsDefault, true},
		{4, &unbounded, 4, ThreadsFromOption, true},
		{0, nil, DefaultMaxThreads, ThreadsDefault, false}, // not told: the rules' count, 3, fits
		{2, nil, 2, ThreadsFromOption, true},
	}
	for _, c := range cases {
		n, err := forkNet(t, Options{MaxThreads: c.max}, c.program)
		if err != nil {
			t.Fatalf("max %d program %v: %v", c.max, c.program, err)
		}
		if n.MaxThreads != c.want || n.ThreadSource != c.source || n.Bounded() != c.bounded {
			t.Errorf("max %d program %v: got %d threads from %s (bounded %v), want %d from %s (bounded %v)",
				c.max, c.program, n.MaxThreads, n.ThreadSource, n.Bounded(), c.want, c.source, c.bounded)
		}
		if got := len(n.slots.proc); got != n.MaxThreads-1 {
			t.Errorf("max %d program %v: %d slots, want %d", c.max, c.program, got, n.MaxThreads-1)
		}
		if c.program == nil && n.ProgramThreads != 3 {
			t.Errorf("not told: ProgramThreads %d, want the rules' 3", n.ProgramThreads)
		}
	}
	if _, err := forkNet(t, Options{}, &two); err == nil {
		t.Errorf("a program counted with 2 threads whose rules make 3: Build did not fail")
	}
}

// TestSpawnableWithParams: the slots of a procedure declared with
// SpawnableWithParams carry its parameters' bits only, and Build rejects
// a fork rule that gives another of its locals a value other than 0.
func TestSpawnableWithParams(t *testing.T) {
	for _, bad := range []bool{false, true} {
		b := NewBuilder(Options{})
		child := b.Proc("child", nil, Pos{})
		p := b.Param(child, "p", IntType(2), Pos{})
		l := b.Local(child, "l", IntType(2), Pos{})
		b.Label(child, "c0", Pos{})
		main := b.Proc("main", nil, Pos{})
		l0, l1 := b.Label(main, "m0", Pos{}), b.Label(main, "m1", Pos{})
		b.SpawnableWithParams(child)
		b.Thread("main", Call(main))
		m, n := b.Manager(), b.Net()
		rel := m.And(n.Unchanged(), m.Eq(n.LocalVec(p, LSaved), m.ConstVec(2, 2)))
		if !bad {
			rel = m.And(rel, m.Eq(n.LocalVec(l, LSaved), m.ConstVec(0, 2)))
		}
		b.Fork(l0, l1, child, rel, Pos{})
		net, err := b.Build()
		if bad {
			if err == nil {
				t.Errorf("a fork rule that leaves a local other than a parameter free: Build did not fail")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := len(net.slots.args[0]); got != 2 {
			t.Errorf("a slot carries %d bits, want the parameter's 2", got)
		}
	}
}
