package tracefmt

import "testing"

func TestParseLang(t *testing.T) {
	for name, want := range map[string]Lang{"pds": LangPDS, "bp": LangBP, "cuba": LangCUBA} {
		if got, err := ParseLang(name); err != nil || got != want {
			t.Errorf("ParseLang(%q): got %v, %v want %v", name, got, err, want)
		}
	}
	if _, err := ParseLang("c"); err == nil || err.Error() != `tracefmt: no language "c": want pds, bp or cuba` {
		t.Errorf("ParseLang(\"c\"): got %v", err)
	}
}
