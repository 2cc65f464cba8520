package cbr

// WithLastBudget returns o with the budget of the last level's tests set
// to limit units of work per test and allowance units beyond what the
// tests saved (package documentation, "The last level"), so that the
// differential test runs out of it on small programs.
func WithLastBudget(o Options, limit, allowance int) Options {
	o.lastBudget = &[2]int{limit, allowance}
	return o
}

// WithoutSharing returns o with every post* call computed, none answered
// by a result of the same level (package documentation, "Shared post*
// results").
func WithoutSharing(o Options) Options {
	o.noShare = true
	return o
}
