// Package record keeps budget records: one line of JSON per assembly, the
// aiwg seed's context_budget_record, appended to .ctxpack/records.jsonl
// under the project root, so that 'ctxpack report' can show how budgets
// were spent.
//
// # Contracts
//
//   - A record is made from a plan (New) and says what the plan says:
//     the budget, the allocation of each tier with its parts, overflow and
//     the metrics. Only its timestamp comes from outside the plan, from the
//     caller's clock; the assembled output never holds a time.
//   - Records are in the order they were appended, newest last. The log
//     keeps the last Log.Max records (1000 by default), and Read returns
//     no more: when the file would hold more than Max + Max/4 lines,
//     Append rewrites it with the newest Max, atomically (temporary file
//     and rename). An append otherwise reads only the lock file's note of
//     the log's size and line count, never the log.
//   - Appends by several processes are serialized by a lock on the lock
//     file beside the log (flock on Unix, LockFileEx on Windows; none on
//     other systems), so no record is torn or lost to a rotation.
//   - Reading skips lines that are not records and reports each with its
//     line number (*LineError); it never fails on them.
package record
