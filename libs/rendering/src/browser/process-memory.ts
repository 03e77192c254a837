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

/** A "Field:   123 kB" line of a /proc file's text, in bytes (0 when absent). */
function kilobytesIn(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}

async function kilobytes(file: string, field: string): Promise<number> {
  return kilobytesIn(await readFile(file, 'utf8').catch(() => ''), field);
}

export interface ProcessTreeMemory {
  /** Sum of each process's RSS: counts the pages Chromium's processes share (fonts, V8 snapshot) once per process. */
  readonly rssBytes: number;
  /**
   * The anonymous part of that RSS (heaps, caches): what the processes hold for themselves. The rest is file-backed —
   * the executables' code, fonts, ICU data — which the kernel can drop and read again under memory pressure.
   */
  readonly rssAnonymousBytes: number;
  /** Sum of each process's PSS: shared pages divided among their sharers, so the tree's real footprint. */
  readonly pssBytes: number;
  readonly processes: number;
}

export async function processTreeMemory(rootPid: number | undefined): Promise<ProcessTreeMemory | undefined> {
  if (rootPid === undefined || process.platform !== 'linux') return undefined;
  const members = await descendantsOf(rootPid);
  const statuses = await Promise.all(members.map((pid) => readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')));
  const rss = statuses.map((status) => kilobytesIn(status, 'VmRSS'));
  const anonymous = statuses.map((status) => kilobytesIn(status, 'RssAnon'));
  const pss = await Promise.all(members.map((pid) => kilobytes(`/proc/${pid}/smaps_rollup`, 'Pss')));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return { rssBytes: sum(rss), rssAnonymousBytes: sum(anonymous), pssBytes: sum(pss), processes: members.length };
}

/**
 * The process and its descendants. Each thread's `children` file names the processes it started, so the tree is read
 * from its root down (a few files) rather than by reading every process's parent on the machine (hundreds, several
 * times a second when a benchmark samples). Kernels without those files fall back to the parents.
 */
async function descendantsOf(rootPid: number): Promise<number[]> {
  const tree: number[] = [];
  let pending = [rootPid];
  while (pending.length > 0) {
    tree.push(...pending);
    const children = await Promise.all(pending.map(childrenOf));
    if (children.includes(undefined)) return descendantsByParent(rootPid);
    pending = (children as number[][]).flat().filter((pid) => !tree.includes(pid));
  }
  return tree;
}

async function childrenOf(pid: number): Promise<number[] | undefined> {
  let threads: string[];
  try {
    threads = await readdir(`/proc/${pid}/task`);
  } catch {
    return []; // it ended meanwhile
  }
  const lists = await Promise.all(
    threads.map((tid) =>
      readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' && tid === String(pid) ? undefined : '',
      ),
    ),
  );
  if (lists.includes(undefined)) return undefined;
  return lists.flatMap((list) => (list ?? '').split(' ').filter(Boolean).map(Number));
}

async function descendantsByParent(rootPid: number): Promise<number[]> {
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
  return [...tree];
}
