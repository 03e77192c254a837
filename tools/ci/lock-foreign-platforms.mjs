#!/usr/bin/env node
// Keeps package-lock.json complete for every platform.
//
// The npm registry reachable from these machines serves only the linux-x64 builds of packages that ship native
// binaries as per-platform optional dependencies (@swc/core-*, msgpackr-extract-*, unrs-resolver bindings…); the
// others answer 404. `npm install` then silently leaves those optional packages out of the lockfile, and `npm ci`
// refuses the lockfile as out of sync. This script adds the missing entries, marked optional and restricted to their
// platform (from the package name), so `npm ci` skips them on Linux without fetching and a machine with the full
// registry still resolves them. Run it after `npm install` changes the lockfile:
//   node tools/ci/lock-foreign-platforms.mjs            (rewrites package-lock.json)
//   node tools/ci/lock-foreign-platforms.mjs --check    (exit 1 when entries are missing)
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === 'linux') entry.libc = [tokens.some((t) => t.startsWith('musl')) ? 'musl' : 'glibc'];
  return entry;
}

const lockPath = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
const missing = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    const version = /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range) ? range : null;
    if (!platform || !version) continue; // not a per-platform binary pinned to one version: leave it to npm
    missing.push(name);
    packages[`node_modules/${name}`] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
  }
}

if (process.argv.includes('--check')) {
  if (missing.length) {
    console.error(
      `package-lock.json lacks ${missing.length} platform packages (${missing.slice(0, 3).join(', ')}…): run node tools/ci/lock-foreign-platforms.mjs`,
    );
    process.exit(1);
  }
} else if (missing.length) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`added ${missing.length} platform entries to package-lock.json`);
}
