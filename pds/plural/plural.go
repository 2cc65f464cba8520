package plural

import (
	"fmt"
	"strings"
)

// Integer is a count of any integer type.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Count writes n and the noun in the form n takes: Count(1, "view
// tuple") is "1 view tuple", Count(0, "switch") "0 switches". The noun
// is given in the singular; its last word takes the plural (Noun).
func Count[T Integer](n T, noun string) string {
	return fmt.Sprintf("%d %s", n, Noun(n, noun))
}

// Noun returns the noun, given in the singular, in the form a count of n
// takes: singular for 1, plural otherwise. The plural follows the
// regular English rules on the last word: "-es" after s, x, z, ch and sh
// ("switches"), "-ies" for a consonant and y ("copies"), "-s" otherwise
// ("states", "CPUs").
func Noun[T Integer](n T, noun string) string {
	if n == 1 {
		return noun
	}
	return Of(noun)
}

// Of returns the plural of a noun given in the singular (see Noun).
func Of(noun string) string {
	lower := strings.ToLower(noun)
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(lower, end) {
			return noun + "es"
		}
	}
	if n := len(lower); n >= 2 && lower[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(lower[n-2])) {
		return noun[:n-1] + "ies"
	}
	return noun + "s"
}

// Or joins words for a message: "a", "a or b", "a, b or c".
func Or(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
