// For the batching tests: a SqlRunner that records every statement it runs, to prove that concurrent calls shared
// statements instead of running one each.
import type { SqlRunner } from '../repositories/sql-runner.js';

/** Every statement that ran, by name, with its row count (the length of its first array parameter; 1 otherwise). */
export function countingSqlRunner(runner: SqlRunner) {
  const statements: Array<{ name: string; rows: number }> = [];
  const wrapped: SqlRunner = {
    query: (name, text, values) => {
      statements.push({ name, rows: Array.isArray(values[0]) ? values[0].length : 1 });
      return runner.query(name, text, values);
    },
  };
  return { runner: wrapped, statements, named: (name: string) => statements.filter((s) => s.name === name) };
}
