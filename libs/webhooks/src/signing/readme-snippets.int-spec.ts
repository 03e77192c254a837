// The verification snippets of the README are what integrators copy: each one runs here as its own process (node,
// python3) on the same cases as verifyWebhookSignature, and must give the same answer on every one of them —
// real deliveries, replays, tampering, rotation, malformed headers and a few hundred generated ones.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { WEBHOOK_EVENTS } from '../events/event-names.js';
import { eventBody } from '../events/event-payload.js';
import { signatureHeader } from './sign.js';
import { verifyWebhookSignature } from './verify.js';

interface Case {
  header: string;
  body: string; // base64 of the raw bytes
  secrets: string | string[];
  now: number;
}

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function snippet(name: string): string {
  const found = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`[a-z]+\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!found?.[1]) throw new Error(`README.md has no snippet "${name}"`);
  return found[1];
}

const JS_HARNESS = `import { verifyTalaoWebhook } from './verify.mjs';
const cases = JSON.parse(await new Response(process.stdin).text());
process.stdout.write(JSON.stringify(cases.map((c) => verifyTalaoWebhook(c.header, Buffer.from(c.body, 'base64'), c.secrets, c.now))));
`;

const PYTHON_HARNESS = `
import base64, json, sys
cases = json.load(sys.stdin)
print(json.dumps([verify_talao_webhook(c["header"], base64.b64decode(c["body"]), c["secrets"], c["now"]) for c in cases]))
`;

function runSnippet(command: string, files: Record<string, string>, entry: string, cases: Case[]): boolean[] {
  const folder = mkdtempSync(join(tmpdir(), 'webhook-snippet-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
    const run = spawnSync(command, [join(folder, entry)], { input: JSON.stringify(cases), encoding: 'utf8' });
    if (run.error) throw new Error(`${command} could not run (${run.error.message}); it is a test prerequisite (see .ci/run)`);
    if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as boolean[];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const secret = 'whsec_snippet_0123456789';
const t = 1_800_000_000;
const body = (event: (typeof WEBHOOK_EVENTS)[number], amount = '987654321987654321.01') =>
  eventBody({
    id: 'e0000000-0000-4000-8000-00000000000a',
    event,
    createdAt: new Date(t * 1000),
    invoice: {
      invoiceId: 'f0000000-0000-4000-8000-00000000000a',
      documentType: 'nfe',
      accessKey: '35261111222333000181550010000000011000000017',
      amount,
    },
  });
const b64 = (text: string) => Buffer.from(text).toString('base64');

function namedCases(): Case[] {
  const cases: Case[] = [];
  for (const event of WEBHOOK_EVENTS) {
    const text = body(event);
    const header = signatureHeader({ secrets: secret, body: text, timestamp: t });
    cases.push(
      { header, body: b64(text), secrets: secret, now: t + 5 },
      { header, body: b64(text), secrets: secret, now: t + 301 },
      { header, body: b64(text), secrets: secret, now: t - 301 },
      { header, body: b64(text.replace('.01', '.02')), secrets: secret, now: t },
      { header, body: b64(text), secrets: 'another_secret_0123456', now: t },
      { header: header.replace(`t=${t}`, `t=${t + 60}`), body: b64(text), secrets: secret, now: t + 60 },
    );
  }
  const text = body('invoice.corrected');
  const rotating = signatureHeader({ secrets: ['old_secret_0123456789', secret], body: text, timestamp: t });
  cases.push(
    { header: rotating, body: b64(text), secrets: secret, now: t },
    {
      header: signatureHeader({ secrets: 'old_secret_0123456789', body: text, timestamp: t }),
      body: b64(text),
      secrets: [secret, 'old_secret_0123456789'],
      now: t,
    },
  );
  for (const header of [
    '',
    'garbage',
    `t=${t}`,
    `t=${t},t=${t},v1=${'a'.repeat(64)}`,
    `t=x,v1=${'a'.repeat(64)}`,
    'v1=',
    `t=${t},v1=${'a'.repeat(2000)}`,
  ]) {
    cases.push({ header, body: b64(text), secrets: secret, now: t });
  }
  return cases;
}

/** Headers assembled from fragments that matter (right and wrong t and v1, other schemes, whitespace, junk). */
function generatedCases(): Case[] {
  const text = body('invoice.authorized', '0.10');
  const good = signatureHeader({ secrets: secret, body: text, timestamp: t }).split(',')[1]!;
  const right = fc.constantFrom(`t=${t}`, good);
  const other = fc.constantFrom(
    `t=${t + 299}`,
    `t=${t + 301}`,
    `t=0${t}`,
    't=',
    't=-1',
    't=1e9',
    good,
    good.toUpperCase().replace('V1', 'v1'),
    `${good}0`,
    `v1=${'0'.repeat(64)}`,
    'v1=xyz',
    'v1',
    'v0=abc',
    'v2=def',
    '=',
    '',
    ' ',
    '\t',
    'x=y=z',
  );
  const fragment = fc.oneof({ weight: 2, arbitrary: right }, { weight: 3, arbitrary: other });
  const spacing = fc.constantFrom(',', ', ', ' ,', ',\t');
  const header = fc.tuple(fc.array(fragment, { minLength: 1, maxLength: 6 }), spacing).map(([parts, separator]) => parts.join(separator));
  return fc.sample(header, { numRuns: 400, seed: 17 }).map((h) => ({ header: h, body: b64(text), secrets: secret, now: t }));
}

describe('README verification snippets', () => {
  const cases = [...namedCases(), ...generatedCases()];
  const expected = cases.map(
    (c) =>
      verifyWebhookSignature({ header: c.header, body: Buffer.from(c.body, 'base64'), secrets: c.secrets, now: new Date(c.now * 1000) }).ok,
  );

  it('has cases on both sides of the line', () => {
    expect(expected.filter(Boolean).length).toBeGreaterThan(20);
    expect(expected.filter((ok) => !ok).length).toBeGreaterThan(50);
  });

  it('JavaScript (node) answers as verifyWebhookSignature on every case', () => {
    const answers = runSnippet(process.execPath, { 'verify.mjs': snippet('verify-js'), 'harness.mjs': JS_HARNESS }, 'harness.mjs', cases);
    expect(cases.filter((c, i) => answers[i] !== expected[i])).toEqual([]);
  });

  it('Python (python3) answers as verifyWebhookSignature on every case', () => {
    const answers = runSnippet('python3', { 'verify.py': `${snippet('verify-python')}\n${PYTHON_HARNESS}` }, 'verify.py', cases);
    expect(cases.filter((c, i) => answers[i] !== expected[i])).toEqual([]);
  });
});
