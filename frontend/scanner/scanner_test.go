package scanner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/token"
)

func TestScan(t *testing.T) {
	src := "int<3> x = 0x1f; // comment\n/* block\n */ a&&b || !c != d <= e >= f ? : [ ] { } , ; -*+ 12"
	got, errs := scanAll(src)
	want := "1:1:intint 1:4:< 1:5:NUMBER3 1:6:> 1:8:IDENTx 1:10:= 1:12:NUMBER0x1f 1:16:; " +
		"3:5:IDENTa 3:6:&& 3:8:IDENTb 3:10:|| 3:13:! 3:14:IDENTc 3:16:!= 3:19:IDENTd 3:21:<= 3:24:IDENTe 3:26:>= 3:29:IDENTf " +
		"3:31:? 3:33:: 3:35:[ 3:37:] 3:39:{ 3:41:} 3:43:, 3:45:; 3:47:- 3:48:* 3:49:+ 3:51:NUMBER12"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
}

func TestScanErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"@", "invalid character '@'"},
		{"0x", "hexadecimal literal has no digits"},
		{"12ab", "invalid integer literal 12ab"},
		{"/* x", "comment is not terminated"},
		{"a & b", "did you mean '&&'"},
		{"é", "only ASCII"},
	} {
		file := token.NewFile("e.pds", len(tc.src))
		var s Scanner
		var errs []string
		s.Init(file, []byte(tc.src), func(pos token.Pos, msg string) { errs = append(errs, msg) })
		for {
			if _, tok, _ := s.Scan(); tok == token.EOF {
				break
			}
		}
		if len(errs) != 1 || !strings.Contains(errs[0], tc.msg) {
			t.Errorf("%q: got %v, want one error with %q", tc.src, errs, tc.msg)
		}
	}
}

// A byte-order mark is skipped at the very start of the file only.
func TestScanByteOrderMark(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // tokens with positions, then errors
	}{
		{"\uFEFFskip;", "1:4:skipskip 1:8:;"},
		{"\uFEFF", ""},
		{"\uFEFF\nskip", "2:1:skipskip"},
		{"skip \uFEFF;", "1:1:skipskip 1:6:ILLEGAL\uFEFF 1:9:; error 1:6: invalid character (only ASCII is allowed outside comments)"},
		{"\uFEFF\uFEFF", "1:4:ILLEGAL\uFEFF error 1:4: invalid character (only ASCII is allowed outside comments)"},
	} {
		got, errs := scanAll(tc.src)
		if g := strings.Join(append(got, errs...), " "); g != tc.want {
			t.Errorf("%q: got %q want %q", tc.src, g, tc.want)
		}
	}
}

// scanAll returns the tokens of src as "line:col:TOKlit" and the errors as
// "error line:col: msg".
func scanAll(src string) (toks, errs []string) { return scanMode(src, 0) }

func scanMode(src string, mode Mode) (toks, errs []string) {
	file := token.NewFile("s.pds", len(src))
	var s Scanner
	s.InitMode(file, []byte(src), func(pos token.Pos, msg string) {
		p := file.Position(pos)
		errs = append(errs, fmt.Sprintf("error %d:%d: %s", p.Line, p.Col, msg))
	}, mode)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return toks, errs
		}
		p := file.Position(pos)
		toks = append(toks, fmt.Sprintf("%d:%d:%s%s", p.Line, p.Col, tok, lit))
	}
}

// COperators: C's operators and the signed suffix; comments still start
// with / and the .pds operators are unchanged.
func TestScanCOperators(t *testing.T) {
	src := "a/b%c&d|e^~f<<g>>h && || a /s b %s c >>s d <s e <=s f >s g >=s h < s <=sx / s//c\n/* */>"
	got, errs := scanMode(src, COperators)
	want := "1:1:IDENTa 1:2:/ 1:3:IDENTb 1:4:% 1:5:IDENTc 1:6:& 1:7:IDENTd 1:8:| 1:9:IDENTe 1:10:^ 1:11:~ 1:12:IDENTf " +
		"1:13:<< 1:15:IDENTg 1:16:>> 1:18:IDENTh 1:20:&& 1:23:|| 1:26:IDENTa 1:28:/s 1:31:IDENTb 1:33:%s 1:36:IDENTc " +
		"1:38:>>s 1:42:IDENTd 1:44:<s 1:47:IDENTe 1:49:<=s 1:53:IDENTf 1:55:>s 1:58:IDENTg 1:60:>=s 1:64:IDENTh " +
		"1:66:< 1:68:IDENTs 1:70:<= 1:72:IDENTsx 1:75:/ 1:77:IDENTs 2:6:>"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	// Without the mode, C's operators stay errors.
	for _, src := range []string{"/", "%", "&", "|", "^", "~"} {
		if _, errs := scanAll(src); len(errs) != 1 {
			t.Errorf("%q: got %v, want one error", src, errs)
		}
	}
	if got, _ := scanAll("a<<b>>c"); strings.Join(got, " ") != "1:1:IDENTa 1:2:< 1:3:< 1:4:IDENTb 1:5:> 1:6:> 1:7:IDENTc" {
		t.Errorf("<< >> without the mode: %v", got)
	}
}
