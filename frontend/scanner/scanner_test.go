package scanner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/token"
)

func TestScan(t *testing.T) {
	src := "int<3> x = 0x1f; // comment\n/* block\n */ a&&b || !c != d <= e >= f ? : [ ] { } , ; -*+ 12"
	file := token.NewFile("s.pds", len(src))
	var s Scanner
	var errs []string
	s.Init(file, []byte(src), func(pos token.Pos, msg string) { errs = append(errs, msg) })
	var got []string
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		p := file.Position(pos)
		got = append(got, fmt.Sprintf("%d:%d:%s%s", p.Line, p.Col, tok, lit))
	}
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
		{"/* x", "comment not terminated"},
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
