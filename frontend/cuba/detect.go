package cuba

import (
	"bytes"
	"strings"
)

// LooksLikeSystem reports whether src looks like a CUBA .pds file rather
// than a program of the .pds modelling language: after comments ("#") and
// blank lines (and a byte-order mark), the first line is a lone decimal
// number (the shared-state count) and the next one is a block header
// "PDA ..." or a rule with "->". It reads only those first lines, so it
// costs time in proportion to the comments before them, and it is
// conservative: a source it accepts cannot be a valid program of the
// modelling language (which has no "#" comments and cannot start with a
// number), while a malformed CUBA file may be rejected. Front ends use it
// to suggest the CUBA reader when the other one fails.
func LooksLikeSystem(src []byte) bool {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	counted := false
	for len(src) > 0 {
		var ln []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			ln, src = src[:i], src[i+1:]
		} else {
			ln, src = src, nil
		}
		if i := bytes.IndexByte(ln, '#'); i >= 0 {
			ln = ln[:i]
		}
		f := strings.Fields(string(ln))
		switch {
		case len(f) == 0:
			continue
		case !counted:
			if len(f) != 1 || !isDecimal(f[0]) {
				return false
			}
			counted = true
		default:
			return f[0] == "PDA" || bytes.Contains(ln, []byte("->"))
		}
	}
	return false
}

// isDecimal reports whether s is a non-empty string of decimal digits.
func isDecimal(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
