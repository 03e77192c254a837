// CPU time per role of the platform's processes, read from /proc (Linux): where a benchmark's cores went, per
// document, beside its throughput. Roles are told apart by command line: the apps by their entry file in this
// checkout (the machine is shared: another checkout's gateway or canceller, started by someone else's test or
// benchmark, is not ours to count), PostgreSQL backends by the benchmark's database name in their process title
// (other databases' work is not counted), the server-wide PostgreSQL processes (WAL writer, checkpointer, …) and
// Redis as they are (shared: they include the rest of the machine's work), this process as `bench`.
// Per process, so a process that ends between two readings (a pool closing an idle connection) is left out rather
// than making its role's figure negative; one that starts in between counts from zero. Elsewhere than Linux it
// reports nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** pid → its role and the seconds of CPU (user + system) it has consumed so far. */
export type CpuByProcess = Map<string, { role: string; seconds: number }>;

const CLOCK_TICKS_PER_SECOND = 100;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** role → the absolute entry file its process runs (the launcher, tools/start/apps.mjs, starts apps by absolute path). */
const APP_ENTRIES = Object.entries({
  gateway: 'apps/gateway/dist/main.js',
  issuer: 'apps/issuer/dist/main.js',
  canceller: 'apps/canceller/dist/main.js',
  'pdf-renderer': 'apps/pdf-renderer/dist/main.js',
  'received-sync': 'apps/received-sync/dist/main.js',
  'webhook-dispatcher': 'apps/webhook-dispatcher/dist/main.js',
  simulator: 'apps/authorizer-sim/dist/main.js',
}).map(([role, entry]) => [role, join(repoRoot, entry)] as const);

function roleOf(commandLine: string, database: string): string | null {
  for (const [role, entry] of APP_ENTRIES) if (commandLine.includes(entry)) return role;
  if (commandLine.startsWith('redis-server')) return 'redis';
  // Every Chromium of the machine (the renderer's and a benchmark's own): a benchmark reads it while only one renders.
  if (/^\S*\/chromium(-headless-shell)?(\s|$)/.test(commandLine)) return 'chromium';
  if (commandLine.startsWith('postgres: ')) {
    if (commandLine.includes(` ${database} `)) return 'postgres';
    // Server-wide processes (their title has no database): WAL writer, checkpointer, background writer, …
    return /^postgres: (\S+: )?(walwriter|checkpointer|background writer|autovacuum launcher)/.test(commandLine)
      ? 'postgres (server)'
      : null;
  }
  return null;
}

/** The live processes of each role and the CPU each has consumed so far. */
export function cpuByProcess(database: string): CpuByProcess {
  const totals: CpuByProcess = new Map();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return totals;
  }
  for (const pid of entries) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const role = Number(pid) === process.pid ? 'bench' : roleOf(commandLine, database);
      if (!role) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start at state; utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
      totals.set(pid, { role, seconds });
    } catch {
      // The process ended between listing and reading.
    }
  }
  return totals;
}

/** "issuer 4.1 · postgres 3.0 · …" milliseconds of CPU per document between two readings, largest first. */
export function describeCpuPerDocument(before: CpuByProcess, after: CpuByProcess, documents: number): string {
  if (documents === 0 || after.size === 0) return 'n/a';
  const byRole = new Map<string, number>();
  for (const [pid, { role, seconds }] of after) byRole.set(role, (byRole.get(role) ?? 0) + seconds - (before.get(pid)?.seconds ?? 0));
  const perDocument = [...byRole].map(([role, seconds]) => [role, (seconds * 1000) / documents] as const);
  const total = perDocument.reduce((sum, [, ms]) => sum + ms, 0);
  return `${total.toFixed(1)} ms in all: ${perDocument
    .sort((a, b) => b[1] - a[1])
    .map(([role, ms]) => `${role} ${ms.toFixed(2)}`)
    .join(' · ')}`;
}
