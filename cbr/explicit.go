package cbr

import "errors"

// ErrDepthLimit: the explicit-state engine (package cbr/states) met a
// call that would make a stack deeper than its depth limit. The calls
// beyond it were not explored, so the run cannot say SAFE.
var ErrDepthLimit = errors.New("stack depth limit reached")
