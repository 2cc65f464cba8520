package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Count(1, "state"), "1 state"},
		{Count(0, "state"), "0 states"},
		{Count(2, "view tuple"), "2 view tuples"},
		{Count(1, "malformed task file"), "1 malformed task file"},
		{Count(3, "switch"), "3 switches"},
		{Count(2, "mismatch"), "2 mismatches"},
		{Count(2, "copy"), "2 copies"},
		{Count(2, "day"), "2 days"},
		{Count(8, "CPU"), "8 CPUs"},
		{Count(int64(1), "byte"), "1 byte"},
		{Count(uint64(1<<63), "byte"), "9223372036854775808 bytes"},
		{Count(-1, "context"), "-1 contexts"},
		{Noun(1, "thread"), "thread"},
		{Noun(4, "thread"), "threads"},
		{Of("post* call"), "post* calls"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q want %q", tc.got, tc.want)
		}
	}
}

func TestOr(t *testing.T) {
	for want, words := range map[string][]string{"": nil, "a": {"a"}, "a or b": {"a", "b"}, "a, b or c": {"a", "b", "c"}} {
		if got := Or(words); got != want {
			t.Errorf("Or(%q) = %q, want %q", words, got, want)
		}
	}
}
