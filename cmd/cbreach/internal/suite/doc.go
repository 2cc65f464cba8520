// Package suite runs suites of verification tasks for `cbreach suite`
// (docs/tasks.md): it reads task definitions in SV-COMP's format, runs
// each task in a cbreach process of its own, scores the verdicts as
// SV-COMP does, and writes the table of results.
//
// The parts, by file:
//
//   - task.go reads a task definition (format_version 2.0: input_files,
//     properties with expected_verdict and expected_bound, options with
//     engine, split and one bound). The YAML is read as a node tree
//     (go.yaml.in/yaml/v3), so that every error and warning names the
//     line of its key; a malformed file is an *Error, an unknown key a
//     Warning. The further options (More: all, prune, max_tuples, traces,
//     max_threads) are cbreach's flags for experiments that measure the
//     engines (the benchmark harness writes them). Check says whether a
//     bound's unit (and prune, max_tuples) fits an engine: that is
//     an error of one task, reported in its row, since the command's
//     --engine may change the engine of every task. The input files are
//     told apart through the table of readers (frontend/readers): a
//     program's suffix chooses its reader, whose name is the task's kind
//     (the property cuba-target.prp chooses the reader with a target
//     file), and the files that go with it (CUBA's .init and .spec) are
//     the reader's companions; run.go names the reader and those files
//     on cbreach's command line from the same table.
//   - run.go runs a Job (a task with the engine and split after the
//     command's overrides) as `cbreach --json ...` under the per-task
//     limits: cbreach keeps its own time and memory limits and reports
//     them in its JSON; the runner interrupts a task that has not stopped
//     30 s past its time limit, and kills it 10 s later. The peak memory
//     is the child's maximum resident set (its rusage). With
//     Settings.Figures the row also carries the run's work figures from
//     cbreach's JSON (Figures: view tuples, post* calls and steps,
//     states, peak BDD nodes, the analysis time). RunLocal runs the
//     jobs on n workers and returns the rows in the order of the jobs,
//     whatever the order they finish in, so that a suite's table does not
//     depend on timing but for the times and memory.
//   - result.go is the Row of a task, Judge (SV-COMP's scores: a correct
//     true +2, a correct false +1, a wrong false -16, a wrong true -32,
//     unknown 0; a false verdict with another fewest count than the
//     expected one is wrong), the summary, and the Markdown, CSV and JSON
//     writers.
//   - slurm.go runs the same jobs as one Slurm job array: the script, the
//     jobs file the elements read, submission with sbatch --parsable,
//     polling with squeue (no accounting assumed), and the collection of
//     one result file per task, a missing one being a failed row.
//
// The package writes files and runs processes for the command; it prints
// nothing itself.
package suite
