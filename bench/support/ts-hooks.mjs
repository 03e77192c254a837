// Module hooks for register-ts.mjs: `@talao/<lib>` → libs/<lib>/src/index.ts and `@talao/<lib>/<entry>` →
// libs/<lib>/src/<entry>/index.ts (as jest.config.mjs maps them),
// relative `./x.js` imported from TypeScript → `./x.ts` when that file exists (NodeNext import style), and .ts
// sources transformed with @swc/core using the root .swcrc.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';

const root = new URL('../../', import.meta.url);
const swcrc = JSON.parse(readFileSync(new URL('.swcrc', root), 'utf8'));
delete swcrc.$schema;

export async function resolve(specifier, context, nextResolve) {
  const lib = /^@talao\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(specifier);
  if (lib) return { url: new URL(`libs/${lib[1]}/src/${lib[2] ? `${lib[2]}/` : ''}index.ts`, root).href, shortCircuit: true };
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const { code } = await swc.transform(await readFile(filename, 'utf8'), {
    ...swcrc,
    swcrc: false,
    filename,
    module: { type: 'es6' },
    sourceMaps: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
