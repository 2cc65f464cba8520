// Package suite runs suites of verification tasks for `cbreach suite`
// (docs/tasks.md): it reads task definitions in SV-COMP's format, runs
// each task in a cbreach process of its own, scores the verdicts as
// SV-COMP does, and writes the table of results.
//
// The parts, by file:
//
//   - task.go reads a task definition (format_version 1.0 or 2.0:
//     input_files, properties with expected_verdict and expected_bound,
//     in 2.0 optional options with SV-COMP's language and data_model and
//     cbreach's engine, split and at most one bound; none deepens it).
//     A task definition makes one Task per property with an expected
//     verdict, as SV-COMP scores each (task, property) pair; a property
//     cbreach does not check, or an input no reader reads, makes a Task
//     with Skip set, an unknown row that runs nothing. property.go tells
//     a property file by its content (ReadProperty): SV-COMP's
//     unreach-call (reach_error or __VERIFIER_error), cbreach's bounded
//     unreach-error and CUBA's target. The YAML is read as a node tree
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
//     Run keeps the verdicts honest: a safe answer is true only when the
//     task asks for safety within its bound, or cbreach proved it for
//     every bound and every number of threads (Task.NeedsProof,
//     unproved); a violation is false only with a trace (untraced).
//   - result.go is the Row of a task, Judge (SV-COMP's scores: a correct
//     true +2, a correct false +1, a wrong false -16, a wrong true -32,
//     unknown 0; a false verdict with another fewest count than the
//     expected one is wrong), the summary, the summaries by directory of
//     task files (Directories), and the Markdown, CSV and JSON writers.
//   - slurm.go runs the same jobs as one Slurm job array: the script, the
//     jobs file the elements read, submission with sbatch --parsable,
//     polling with squeue (no accounting assumed), and the collection of
//     one result file per task, a missing one being a failed row.
//
// The package writes files and runs processes for the command; it prints
// nothing itself.
package suite
