package cbr

import (
	"context"
	"errors"
	"testing"

	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

// TestFinishThreadBound: a start cut off at the thread bound sets the
// thread bound the coverage assumes, whether it comes as the search's
// error or beside it, and a limit that cuts the search off afterwards
// keeps it in the reason.
func TestFinishThreadBound(t *testing.T) {
	cut := ThreadLimit("cbr", pds.Pos{File: "a.pds", Line: 3, Col: 41}, 8)
	require.ErrorIs(t, cut, ErrThreadBound)
	require.Equal(t, "a start at a.pds:3:41 would exceed the thread bound of 8 threads", Reason(cut))

	var r Result
	require.NoError(t, r.Finish(nil, cut))
	require.Equal(t, Unknown, r.Verdict)
	require.Equal(t, 8, r.ThreadBound)
	require.Equal(t, Reason(cut), r.Reason)

	r = Result{}
	require.NoError(t, r.Finish(context.DeadlineExceeded, cut))
	require.True(t, errors.Is(r.Limit, context.DeadlineExceeded))
	require.Equal(t, 8, r.ThreadBound)
	require.Equal(t, "time limit reached; a start at a.pds:3:41 would exceed the thread bound of 8 threads", r.Reason)

	r = Result{}
	require.NoError(t, r.Finish(cut, nil))
	require.Equal(t, 8, r.ThreadBound)
	require.Equal(t, Reason(cut), r.Reason)

	r = Result{}
	require.NoError(t, r.Finish(context.Canceled, nil))
	require.Equal(t, 0, r.ThreadBound)
	require.Equal(t, "cancelled", r.Reason)
}
