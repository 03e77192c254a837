// Persistence's modules form no import loop (type-only imports included): a repository that needs another's types or
// SQL takes them from a leaf module (issuance-records.ts, submission-columns.ts), never from the other repository.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'testing' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Relative imports and re-exports of a module, as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^'";]*?from\s+'(\.{1,2}\/[^']+)\.js'/gms)].map((m) =>
    resolve(dirname(file), `${m[1]}.ts`),
  );
}

/** Every cycle found by a depth-first walk, as the chain of files that closes it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].map((f) => relative(root, f)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('persistence modules', () => {
  const graph = new Map(sources(root).map((file) => [file, importsOf(file)]));

  it('are read with their imports (the walk sees the repositories)', () => {
    expect(graph.get(join(root, 'repositories/invoices-repository.ts'))).toContain(join(root, 'repositories/finish-with-event.ts'));
  });

  it('import one another without a loop', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the walk finds a loop when there is one', () => {
    expect(
      cycles(
        new Map([
          ['/a.ts', ['/b.ts']],
          ['/b.ts', ['/c.ts']],
          ['/c.ts', ['/a.ts']],
        ]),
      ),
    ).toHaveLength(1);
  });
});
