#!/usr/bin/env node
// First step of `npm start` and `npm test`: refuse at once, in one line, on a Node the platform does not run on.
// Plain JavaScript with no imports, so it runs (and says what to do) on any Node, however old. Node 20, which these
// machines ship, lacks APIs the platform uses (X509Certificate.validToDate, for one): without this check it started,
// then answered 500 while preparing the demo company.
import { readFileSync } from 'node:fs';

const wanted = readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim();
const [wantedMajor] = wanted.split('.');
const [major, minor] = process.versions.node.split('.').map(Number);
if (String(major) !== wantedMajor || minor < 9) {
  console.error(
    `Talão needs Node ${wantedMajor} (≥ ${wantedMajor}.9; .nvmrc says ${wanted}), this is Node ${process.versions.node}. ` +
      `Run \`source tools/ci/node24.sh\` (installs Node ${wanted} from the npm registry into .tools/ and puts it first on PATH), then the same npm command again.`,
  );
  process.exit(1);
}
