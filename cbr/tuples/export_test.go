package tuples

// WithLastBudget returns e with the budget of the last level's tests set
// to limit units of work per test and allowance units beyond what the
// tests saved (package documentation, "The last level"), so that the
// differential test runs out of it on small programs.
func WithLastBudget(e Engine, limit, allowance int) Engine {
	e.lastBudget = &[2]int{limit, allowance}
	return e
}

// WithoutSharing returns e with every post* call computed, none answered
// by a result of the same level (package documentation, "Shared post*
// results").
func WithoutSharing(e Engine) Engine {
	e.noShare = true
	return e
}
