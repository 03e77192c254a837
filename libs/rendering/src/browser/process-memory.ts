// The memory of a process and all its descendants (Chromium is a browser process plus zygotes, a GPU/utility
// process and one renderer per page), read from /proc. Linux only: elsewhere it reports nothing.
import { readdir, readFile } from 'node:fs/promises';

async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may contain spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

async function kilobytes(file: string, field: string): Promise<number> {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(await readFile(file, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface ProcessTreeMemory {
  /** Sum of each process's RSS: counts the pages Chromium's processes share (fonts, V8 snapshot) once per process. */
  readonly rssBytes: number;
  /** Sum of each process's PSS: shared pages divided among their sharers, so the tree's real footprint. */
  readonly pssBytes: number;
  readonly processes: number;
}

export async function processTreeMemory(rootPid: number | undefined): Promise<ProcessTreeMemory | undefined> {
  if (rootPid === undefined || process.platform !== 'linux') return undefined;
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const parents = new Map<number, number | undefined>(await Promise.all(pids.map(async (pid) => [pid, await parentOf(pid)] as const)));
  const tree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (parent !== undefined && tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  const members = [...tree];
  const rss = await Promise.all(members.map((pid) => kilobytes(`/proc/${pid}/status`, 'VmRSS')));
  const pss = await Promise.all(members.map((pid) => kilobytes(`/proc/${pid}/smaps_rollup`, 'Pss')));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return { rssBytes: sum(rss), pssBytes: sum(pss), processes: tree.size };
}
