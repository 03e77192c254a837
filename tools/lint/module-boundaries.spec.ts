// The dependency rules hold because lint fails on a violating import: each case lints a source text as if it were a
// file of the named project, with the repository's own ESLint configuration, and expects the boundary rule's error.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const RULE = '@nx/enforce-module-boundaries';

async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(source, { filePath: `${repoRoot}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('module boundaries (docs/architecture.md "Libraries")', () => {
  beforeAll(() => {
    // The rule reads Nx's cached project graph (written by any nx command; `nx run-many -t lint` writes it first).
    // Without it the rule reports nothing at all, so the graph is computed here rather than assumed.
    const nx = spawnSync(process.execPath, [`${repoRoot}node_modules/nx/dist/bin/nx.js`, 'show', 'projects'], {
      cwd: repoRoot,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      encoding: 'utf8',
    });
    if (nx.status !== 0) throw new Error(`nx show projects failed: ${nx.stderr}`);
  }, 120_000);

  it('lets the fiscal core import the fiscal core', async () => {
    expect(
      await boundaryErrors('libs/fiscal-xml/src/boundary-probe.ts', "import { Dec } from '@talao/fiscal-model';\nexport const d = Dec;\n"),
    ).toEqual([]);
  });

  it('refuses NestJS, database and queue packages in the fiscal core', async () => {
    for (const pkg of ['@nestjs/common', 'pg', 'bullmq', 'ioredis']) {
      const errors = await boundaryErrors('libs/fiscal-model/src/boundary-probe.ts', `import * as x from '${pkg}';\nexport const y = x;\n`);
      expect(errors.join('\n')).toMatch(new RegExp(`tagged with "layer:fiscal" is not allowed to import "${pkg}"`));
    }
  });

  /** Lint errors of a probe file importing `specifier`, joined. */
  const probe = async (file: string, specifier: string) =>
    (await boundaryErrors(file, `import * as probed from '${specifier}';\nexport const p = probed;\n`)).join('\n');

  it('refuses a fiscal lib importing persistence (a lib with I/O)', async () => {
    expect(await probe('libs/fiscal-model/src/boundary-probe.ts', '@talao/persistence')).toMatch(
      /layer:fiscal.*can only depend on libs tagged with.*layer:fiscal/s,
    );
  });

  it('refuses a lib importing an app, and an app importing another app', async () => {
    // (Apps that depend on the probing lib would make the rule report the cycle first: the simulator needs no persistence.)
    expect(await probe('libs/persistence/src/boundary-probe.ts', '@talao/authorizer-sim')).toMatch(
      /type:lib.*can only depend on libs tagged with.*type:lib/s,
    );
    expect(await probe('apps/issuer/src/boundary-probe.ts', '@talao/authorizer-sim')).toMatch(
      /type:app.*can only depend on libs tagged with.*type:lib/s,
    );
  });

  it('refuses reaching into another project by a relative path', async () => {
    const errors = await boundaryErrors(
      'apps/gateway/src/boundary-probe.ts',
      "import { Dec } from '../../../libs/fiscal-model/src/decimal/money.js';\nexport const d = Dec;\n",
    );
    expect(errors.join('\n')).toMatch(/relative or absolute path/);
  });
});
