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
//     keeps the last Log.Max records (1000 by default) in at most
//     Log.MaxBytes bytes (10 MiB by default), and Read returns no more
//     records: when the file would hold more than Max + Max/4 lines or
//     more than MaxBytes bytes, Append rewrites it with the newest records,
//     at most Max of them in at most three quarters of MaxBytes,
//     atomically (temporary file and rename). An append otherwise reads
//     only the lock file's note of the log's size and line count, never
//     the log. The file never holds more than MaxBytes.
//   - A record lists at most MaxFiles parts per tier and MaxFiles entries
//     per overflow list, counting the rest; one whose line alone would be
//     over a quarter of MaxBytes is written slim (Record.Slim: counts
//     only).
//   - Appends by several processes are serialized by a lock on the lock
//     file beside the log (flock on Unix, LockFileEx on Windows; none on
//     other systems), so no record is torn or lost to a rotation.
//   - Reading skips lines that are not records and reports each with its
//     line number (*LineError); it never fails on them.
package record
