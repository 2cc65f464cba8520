package tracefmt

import (
	"testing"

	"github.com/cbreach/cbreach/symauto"
)

// TestEscaping: text in HTML-like labels and in quoted strings reaches
// Graphviz as written, whatever characters it holds.
func TestEscaping(t *testing.T) {
	cases := []struct{ in, html, quoted string }{
		{"plain", "plain", `"plain"`},
		{`say "hi"`, "say &quot;hi&quot;", `"say \"hi\""`},
		{`a\b \n \l`, `a\b \n \l`, `"a\\b \\n \\l"`},
		{"two\nlines", `two<br align="left"/>lines`, `"two\nlines"`},
		{"x < 2 && y > 1", "x &lt; 2 &amp;&amp; y &gt; 1", `"x < 2 && y > 1"`},
		{"{ a; } [b] |c|", "{ a; } [b] |c|", `"{ a; } [b] |c|"`},
		{"it's", "it&#39;s", `"it's"`},
		{"tab\there\x00\x7f", "tab here  ", `"tab here  "`},
		{"bad \xff utf-8", "bad \uFFFD utf-8", "\"bad \uFFFD utf-8\""},
		{"ε ≠ ∅", "ε ≠ ∅", `"ε ≠ ∅"`},
	}
	for _, c := range cases {
		if got := htmlText(c.in); got != c.html {
			t.Errorf("htmlText(%q): got %q want %q", c.in, got, c.html)
		}
		if got := symauto.DOTQuote(c.in); got != c.quoted {
			t.Errorf("symauto.DOTQuote(%q): got %q want %q", c.in, got, c.quoted)
		}
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"", 10, []string{""}},
		{"a b c", 10, []string{"a b c"}},
		{"aaaa bbbb cccc", 9, []string{"aaaa bbbb", "cccc"}},
		{"aaaaaaaaaaaa b", 5, []string{"aaaaaaaaaaaa", "b"}},
	}
	for _, c := range cases {
		got := wrap(c.in, c.width)
		if len(got) != len(c.want) {
			t.Errorf("wrap(%q, %d): got %q want %q", c.in, c.width, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("wrap(%q, %d): got %q want %q", c.in, c.width, got, c.want)
			}
		}
	}
}
