package cbr

import (
	"context"
	"testing"
	"time"
)

// TestGrace: the grace context outlives its run's context by GraceTime
// (from now when that has ended), ends at once with the hard stop, lives
// while the run's context does, and is not graced twice.
func TestGrace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g, release := Grace(ctx)
	if g.Err() != nil {
		t.Fatal("grace ended while its run's context lives")
	}
	if h, _ := Grace(g); h != g {
		t.Error("a grace context was graced again")
	}
	start := time.Now()
	cancel()
	<-g.Done()
	if d := time.Since(start); d < GraceTime/2 || d > 10*GraceTime {
		t.Errorf("grace ended %v after its run's context, want about %v", d, GraceTime)
	}
	release()

	hard, stopHard := context.WithCancel(context.Background())
	ctx, cancel = context.WithCancel(WithHardStop(context.Background(), hard))
	cancel()
	g, release = Grace(ctx)
	defer release()
	if g.Err() != nil {
		t.Fatal("grace ended before its period")
	}
	stopHard()
	select {
	case <-g.Done():
	case <-time.After(GraceTime / 2):
		t.Error("the hard stop did not end the grace period at once")
	}
}
