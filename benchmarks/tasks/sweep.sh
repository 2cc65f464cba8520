#!/usr/bin/env bash
# Writes a larger suite for timing `cbreach suite` (docs/benchmarks.md,
# "Task suites"): every task of benchmarks/tasks that counts contexts, at
# every bound from 1 to its own, into DIR. Below a task's expected_bound
# the expected verdict is true; the Boolean programs that start threads in
# a loop (thread bound met below their EXPECTED bound) are left out there.
#
#   bash benchmarks/tasks/sweep.sh /tmp/sweep && cbreach suite --jobs 1 /tmp/sweep
set -euo pipefail
out=${1:?usage: sweep.sh DIR}
root=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for f in "$root"/*/*.yml; do
	k=$(sed -n 's/^  contexts: \([0-9]*\)$/\1/p' "$f")
	[ -n "$k" ] || continue
	dir=$(dirname "$f")
	eb=$(sed -n 's/^    expected_bound: \([0-9]*\)$/\1/p' "$f")
	name=$(basename "$(dirname "$f")")-$(basename "$f" .yml)
	for j in $(seq 1 "$k"); do
		# Paths made absolute, the bound replaced.
		body=$(sed -e "s#^input_files: '\(.*\)'#input_files: '$dir/\1'#" \
			-e "s#property_file: \(.*\)#property_file: $dir/\1#" \
			-e "s/^  contexts: .*/  contexts: $j/" "$f")
		if [ -n "$eb" ] && [ "$j" -lt "$eb" ]; then
			case "$f" in */boolean/*) case "$f" in */boolean/bluetooth-*) ;; *) continue ;; esac ;; esac
			body=$(printf '%s\n' "$body" | sed -e 's/expected_verdict: false/expected_verdict: true/' -e '/expected_bound:/d')
		fi
		printf '%s\n' "$body" >"$out/$name-sweep$j.yml"
	done
done
