// Test support: validates XML with the Debian `xmllint` against an official schema file — an independent checker
// next to the project's own validator.
import { spawnSync } from 'node:child_process';

export function xmllintErrors(xml: string, schemaPath: string): string | undefined {
  const run = spawnSync('xmllint', ['--noout', '--schema', schemaPath, '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? undefined : run.stderr;
}
