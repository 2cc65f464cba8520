package tier

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSeedsEveryday(t *testing.T) {
	t.Setenv(LongEnv, "")
	require.False(t, Long())
	require.Equal(t, []uint64{1, 2, 3}, Seeds(t, 3, 10, 5))
	require.Equal(t, 3, Pick(3, 10))
}

func TestSeedsLong(t *testing.T) {
	t.Setenv(LongEnv, "1")
	require.True(t, Long())
	require.Equal(t, 10, Pick(3, 10))
	seeds := Seeds(t, 3, 10, 5)
	require.Len(t, seeds, 15)
	for i, s := range seeds[:10] {
		require.Equal(t, uint64(i+1), s, "the fixed seeds come first")
	}
	for _, s := range seeds[10:] {
		require.GreaterOrEqual(t, s, uint64(RotatingBase), "a drawn seed never names a fixed case")
	}
	c, err := Campaign()
	require.NoError(t, err)
	require.Equal(t, rotating(c, 5), seeds[10:], "the drawn seeds are the campaign's")
}

// TestCampaign: CBREACH_SEED replays a campaign; without it the clock
// draws one; a seed that is no number is an error.
func TestCampaign(t *testing.T) {
	c, err := parseCampaign("720230160", time.Time{})
	require.NoError(t, err)
	require.Equal(t, uint64(720230160), c)
	require.Equal(t, rotating(c, 30), rotating(c, 30), "a campaign draws the same seeds every time")
	require.NotEqual(t, rotating(c, 30), rotating(c+1, 30), "another campaign draws other seeds")
	d := rotating(c, 30)
	slices.Sort(d)
	require.Len(t, slices.Compact(d), 30, "distinct seeds")

	a, err := parseCampaign("", time.Unix(0, 1234567890123))
	require.NoError(t, err)
	require.Equal(t, uint64(234567890123%1_000_000_000), a)

	_, err = parseCampaign("x12", time.Time{})
	require.ErrorContains(t, err, `CBREACH_SEED="x12" is not a seed`)
}
