package cbr

import "testing"

// TestUnitsRounds: the rounds a trace uses are the fewest rounds of
// round-robin whose schedules hold its contexts in order.
func TestUnitsRounds(t *testing.T) {
	for _, c := range []struct {
		threads []int
		want    int
	}{
		{nil, 0},
		{[]int{0}, 1},
		{[]int{2}, 1},
		{[]int{0, 1, 2}, 1},
		{[]int{0, 2, 1}, 2},
		{[]int{1, 0}, 2},
		{[]int{0, 1, 0, 2, 1}, 3},
		{[]int{2, 1, 0}, 3},
	} {
		tr := &Trace{}
		for _, th := range c.threads {
			tr.Contexts = append(tr.Contexts, TraceContext{Thread: th})
		}
		got, err := tr.Units(nil, Rounds)
		if err != nil || got != c.want {
			t.Errorf("threads %v: %d rounds (%v), want %d", c.threads, got, err, c.want)
		}
	}
}
