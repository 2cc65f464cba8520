#!/usr/bin/env bash
# cuba-vs.sh: cbreach and CUBA side by side on CUBA's pldi18 suite.
#
#   benchmarks/cuba-vs.sh CUBA-BINARY SUITE-DIR [INSTANCE...]
#
# Runs both tools in turn on one core (taskset -c 0), every instance 3
# times, or 21 times when its first runs took under 0.1 s each, and
# writes a table of the medians (wall clock, the whole process) into
# docs/benchmarks.md between the lines "<!-- cuba-vs begin -->" and
# "<!-- cuba-vs end -->", with the date, the machine, its load and each
# tool's mode. Given INSTANCEs, it reruns only those: their rows replace
# theirs in the table, the other rows stay, and each row says when and
# at which commits it was measured. Medians within 5 % of each other are a tie. A run is cut
# off after $CUBA_VS_TIMEOUT seconds (default 120). Instances with a
# target (.spec) run at the bound of CUBA's table (the README of the
# suite), the others, and Bluetooth3-12 and 3-21, unbounded: CUBA
# without -k, cbreach with --unbounded. Getting CUBA: docs/benchmarks.md,
# "CUBA side by side". This is a benchmark, not a test.
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 CUBA-BINARY SUITE-DIR [INSTANCE...]" >&2
	exit 2
fi
cuba=$(readlink -f "$1")
suite=$(readlink -f "$2")
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
timeout_s=${CUBA_VS_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/cbreach" ./cmd/cbreach)
cbreach=$work/cbreach

# name | folder/file | CUBA's flags | cbreach's flags (lazy splitting, the default)
instances='
Bluetooth1-11|01_Bluetooth-1/Bluetooth1-11|-x -k 4|-k 4
Bluetooth1-12|01_Bluetooth-1/Bluetooth1-12|-x -k 3|-k 3
Bluetooth1-21|01_Bluetooth-1/Bluetooth1-21|-x -k 4|-k 4
Bluetooth2-11|02_Bluetooth-2/Bluetooth2-11|-x -k 4|-k 4
Bluetooth2-12|02_Bluetooth-2/Bluetooth2-12|-x -k 3|-k 3
Bluetooth2-21|02_Bluetooth-2/Bluetooth2-21|-x -k 4|-k 4
Bluetooth3-11|03_Bluetooth-3/Bluetooth3-11|-x -k 7|-k 7
Bluetooth3-12|03_Bluetooth-3/Bluetooth3-12|-x -z 2|--unbounded
Bluetooth3-21|03_Bluetooth-3/Bluetooth3-21|-x -z 2|--unbounded
bst-11|04_BST-Insert/bst-11|-x|--unbounded
bst-21|04_BST-Insert/bst-21|-x|--unbounded
bst-22|04_BST-Insert/bst-22|-x|--unbounded
FileCrawler|05_FileCrawler/filecrawer|-x -z 2|--unbounded
K-Induction|06_K-Indcution/k-induction||--unbounded
Proc-2|07_Proc-2/proc-2||--unbounded
stefan-2|08_Stefan-1/stefan-2||--unbounded
stefan-4|08_Stefan-1/stefan-4||--unbounded
stefan-8|08_Stefan-1/stefan-8||--unbounded
Dekker|09_Dekker/dekker|-x -z 2|--unbounded
'

# run OUT CMD...: runs CMD on core 0 with the time limit, its output in
# OUT; prints the wall-clock seconds, or "-" when cut off.
run() {
	local out=$1
	shift
	local s e rc=0
	s=$(date +%s%N)
	taskset -c 0 timeout "$timeout_s" "$@" >"$out" 2>&1 || rc=$?
	e=$(date +%s%N)
	if [ "$rc" = 124 ]; then
		echo -
	else
		awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'
	fi
}

median() {
	tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0 || v[(NR + 1) / 2] == "-") print "-"; else print v[int((NR + 1) / 2)] }'
}

# cubaAnswer and cbreachAnswer read a run's answer from its output.
cubaAnswer() {
	local a
	a=$(grep -o 'is reachable!\|is unreachable!' "$1" | head -1 | sed -e 's/!//' -e 's/^is //') || true
	c=$(grep -o 'collapses at [0-9]*' "$1" | head -1 | sed 's/collapses at/converges at/') || true
	echo "${a:-}${a:+${c:+, }}${c:-}" | sed 's/^$/no answer/'
}
cbreachAnswer() {
	head -1 "$1" | sed -E \
		-e 's/^VIOLATION target visible state .* first reached with ([0-9]+) contexts?.*/reachable with \1/' \
		-e 's/^SAFE for any number of contexts.*(configurations|visible states).* stop growing at ([0-9]+) contexts?.*/unreachable, every bound: \1 at \2/' \
		-e 's/^NO TARGET.*(configurations|visible states).* stop growing at ([0-9]+) contexts?.*/every bound: \1 at \2/' \
		-e 's/^SAFE within ([0-9]+) contexts.*/unreachable within \1/' \
		-e 's/^UNKNOWN.*/no answer/' \
		-e 's/visible states/visible/'
}

cubaCommit=$(cd "$(dirname "$cuba")/.." 2>/dev/null && git rev-parse --short HEAD 2>/dev/null || echo '(commit unknown)')
stamp="$(date -u +%Y-%m-%d), load $(cut -d' ' -f1 /proc/loadavg), CUBA $cubaCommit, cbreach $(cd "$root" && git rev-parse --short HEAD)"
doc=$root/docs/benchmarks.md
if ! grep -q '<!-- cuba-vs begin -->' "$doc"; then
	echo "$doc has no <!-- cuba-vs begin --> line" >&2
	exit 1
fi
# The rows measured before, one file each, for the instances not rerun.
awk '/<!-- cuba-vs begin -->/ { on = 1; next } /<!-- cuba-vs end -->/ { on = 0 } on && /^\| / && !/^\| instance / { print }' "$doc" |
	while IFS= read -r line; do
		old=$(echo "$line" | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')
		[ -n "$old" ] && printf '%s\n' "$line" >"$work/old.$old"
	done
while IFS='|' read -r name file cflags bflags; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	pds=$suite/$file.pds init=$suite/$file.init spec=$suite/$file.spec
	cargs=(-f "$pds" -i "$init")
	[ -f "$spec" ] && cargs+=(-a "$(tr -d ' \r\n' <"$spec")")
	# shellcheck disable=SC2206
	cargs+=($cflags)
	# shellcheck disable=SC2206
	bargs=(--cuba -q $bflags "$pds")
	ct="" bt=""
	n=3 i=0
	while [ $i -lt $n ]; do
		c=$(run "$work/cuba.out" "$cuba" "${cargs[@]}")
		b=$(run "$work/cbreach.out" "$cbreach" "${bargs[@]}")
		ct="$ct $c" bt="$bt $b"
		if [ $i = 0 ] && [ "$c" != - ] && [ "$b" != - ] && awk -v c="$c" -v b="$b" 'BEGIN { exit !(c < 0.1 && b < 0.1) }'; then
			n=21
		fi
		i=$((i + 1))
		if [ "$c" = - ] && [ "$b" = - ]; then
			break # both cut off: once is enough
		fi
	done
	cm=$(echo "$ct" | median) bm=$(echo "$bt" | median)
	verdict=$(awk -v c="$cm" -v b="$bm" 'BEGIN {
		if (c == "-" && b == "-") print "neither"
		else if (c == "-") print "cbreach ahead"
		else if (b == "-") print "CUBA ahead"
		else if (b <= c * 1.05 && c <= b * 1.05) print "tie"
		else if (b < c) printf "cbreach ahead (%.2f)\n", b / c
		else printf "CUBA ahead (%.2f)\n", b / c }')
	printf '| %s | `%s` | %s | %s | `%s` | %s | %s | %s | %s | %s |\n' "$name" "${cflags:-(symbolic)}" "$(cubaAnswer "$work/cuba.out")" "$cm" "$bflags" \
		"$(cbreachAnswer "$work/cbreach.out")" "$bm" "$i" "$verdict" "$stamp" >"$work/row.$name"
	echo "$name: CUBA $cm s, cbreach $bm s ($verdict)" >&2
done <<<"$instances"

rows=""
while IFS='|' read -r name _; do
	[ -n "$name" ] || continue
	if [ -f "$work/row.$name" ]; then
		rows="$rows$(cat "$work/row.$name")
"
	elif [ -f "$work/old.$name" ]; then
		rows="$rows$(cat "$work/old.$name")
"
	fi
done <<<"$instances"

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || uname -m)
table="Measured with benchmarks/cuba-vs.sh on $(nproc) cores of $cpu ($(uname -sm)); each row says when, the load average before its runs, and the commits of CUBA (g++ -O2) and of cbreach. Both tools one at a time, in turn, on core 0 (\`taskset -c 0\`); the whole process, wall clock, median of the runs (21 where a run took under 0.1 s, else 3); a run is cut off after ${timeout_s} s (\"-\"). cbreach runs with lazy splitting and subsumed tuples pruned (the defaults). Medians within 5 % of each other are a tie; the figure in brackets is cbreach's time over CUBA's. CUBA's explicit engine prints the bound of its convergence one less than the contexts of its own bounded mode (Bluetooth3-12: it prints 6, and its \`-k 6\` does not reach the visible state 10|22,18,20,-, which its \`-k 7\` reaches); cbreach says the contexts.

| instance | CUBA mode | CUBA answer | CUBA s | cbreach mode | cbreach answer | cbreach s | runs | | measured |
|---|---|---|---:|---|---|---:|---:|---|---|
$rows"
awk -v t="$table" '
	/<!-- cuba-vs begin -->/ { print; print t; skip = 1; next }
	/<!-- cuba-vs end -->/ { skip = 0 }
	!skip { print }' "$doc" >"$work/doc" && cp "$work/doc" "$doc"
echo "wrote the table into $doc" >&2
