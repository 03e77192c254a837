// Runs the TypeScript benchmarks directly from the sources, compiled on the fly by @swc/core with the repository's
// .swcrc (the same transform Jest uses), so a bench measures exactly the code the tests cover — no build step, no
// stale dist. Usage: node --import ./bench/support/register-ts.mjs bench/<name>.bench.ts
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
