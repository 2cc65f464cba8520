package suite

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// The properties cbreach checks. A task's property_file is told by its
// content (ReadProperty); each constant is the file name SV-COMP, or
// benchmarks/tasks/properties, gives the property.
const (
	// UnreachCall is SV-COMP's unreach-call: no call of the error
	// function (reach_error, or __VERIFIER_error in older inputs) is
	// reachable from main, for any number of contexts. For the .pds and
	// Boolean programs, whose errors are failed assertions and error
	// labels, the same as UnreachError without a bound.
	UnreachCall = "unreach-call.prp"
	// UnreachError is cbreach's bounded reachability: no failed
	// assertion, index out of range or error label is reachable within
	// the task's bound (its formula is unreach-call's with "within the
	// bound"). Without a bound in the task, it is UnreachCall.
	UnreachError = "unreach-error.prp"
	// CubaTarget is CUBA's target: the visible state of the system's
	// .spec is not reachable within the bound.
	CubaTarget = "cuba-target.prp"
)

// The error functions unreach-call names: reach_error since SV-COMP 2021,
// __VERIFIER_error before. Both are the same property to cbreach; which
// one a C program calls is the C reader's business.
var errorFunctions = []string{"reach_error", "__VERIFIER_error"}

var (
	// CHECK( init(main()), LTL(G ! call(reach_error())) ), spaces removed.
	unreachRE = regexp.MustCompile(`^CHECK\(init\(([A-Za-z_]\w*)\(\)\),LTL\(G!call\(([A-Za-z_]\w*)\(\)\)\)\)(withinthebound)?$`)
	cubaRE    = regexp.MustCompile(`^CHECK\(init\(\.init\),LTL\(G!visible\(\.spec\)\)\)withinthebound$`)
)

// Property is what a property file says.
type Property struct {
	// Kind is UnreachCall, UnreachError or CubaTarget; "" for a property
	// cbreach does not check.
	Kind string
	// Formula is the file's property, its lines without comments joined
	// by spaces: "CHECK( init(main()), LTL(G ! data-race) )".
	Formula string
	// Why says, for a property cbreach does not check, why not.
	Why string
}

// ReadProperty tells the property of a property file by its content,
// not its name: the lines that are not "//" comments make its formula,
// read with spaces ignored. SV-COMP's unreach-call (CHECK( init(main()),
// LTL(G ! call(reach_error())) ), or __VERIFIER_error) is UnreachCall;
// the same formula followed by "within the bound" is UnreachError; CUBA's
// target formula is CubaTarget. Anything else (no-data-race,
// termination, valid-memsafety, coverage, an entry other than main, an
// error function of another name, several formulas) is a property
// cbreach does not check: Kind "", and Why says so.
func ReadProperty(name string, src []byte) Property {
	var lines []string
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "//") {
			lines = append(lines, l)
		}
	}
	p := Property{Formula: strings.Join(lines, " ")}
	compact := strings.Join(strings.Fields(p.Formula), "")
	switch m := unreachRE.FindStringSubmatch(compact); {
	case cubaRE.MatchString(compact):
		p.Kind = CubaTarget
	case m == nil && p.Formula == "":
		p.Why = fmt.Sprintf("%s holds no formula", filepath.Base(name))
	case m == nil:
		p.Why = p.Formula
	case m[1] != "main":
		p.Why = fmt.Sprintf("%s (the entry function is %s, not main)", p.Formula, m[1])
	case m[2] != errorFunctions[0] && m[2] != errorFunctions[1]:
		p.Why = fmt.Sprintf("%s (the error function is %s, not %s)", p.Formula, m[2], strings.Join(errorFunctions, " or "))
	case m[3] != "":
		p.Kind = UnreachError
	default:
		p.Kind = UnreachCall
	}
	return p
}

// NotChecked is the message of a property cbreach does not check.
func (p Property) NotChecked() string { return "property not checked: " + p.Why }
