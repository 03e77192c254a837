// For the batching and plan tests: a SqlRunner that records every statement it runs, to prove that concurrent calls
// shared statements instead of running one each, and to replay a statement's text (hot-path-plans.int-spec.ts).
import type { SqlRunner } from '../repositories/sql-runner.js';

/**
 * Every statement that ran, by name, with its row count (the length of its first array parameter; 1 otherwise);
 * `lastRun` keeps each name's text and the values of its latest run.
 */
export function countingSqlRunner(runner: SqlRunner) {
  const statements: Array<{ name: string; rows: number }> = [];
  const lastRun = new Map<string, { text: string; values: unknown[] }>();
  const wrapped: SqlRunner = {
    query: (name, text, values) => {
      statements.push({ name, rows: Array.isArray(values[0]) ? values[0].length : 1 });
      lastRun.set(name, { text, values });
      return runner.query(name, text, values);
    },
  };
  return { runner: wrapped, statements, lastRun, named: (name: string) => statements.filter((s) => s.name === name) };
}
