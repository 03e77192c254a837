// Builds the apps and the libs they import (Nx follows the imports; unchanged projects come from Nx's cache, so a
// second start spends about a second here). Also makes sure every workspace package is linked under
// node_modules/@talao, because the built apps import the libs by package name at run time.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Runs `nx run-many -t build` for the given projects; resolves with Nx's summary line, rejects with its output. */
export function buildProjects({ root, projects, log }) {
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', FORCE_COLOR: '0' };
  const nx = path.join(root, 'node_modules', '.bin', 'nx');
  const args = ['run-many', '-t', 'build', '--projects', projects.join(','), '--outputStyle=static'];
  return new Promise((resolve, reject) => {
    // The Nx daemon is off so the launcher leaves no background process behind.
    const child = spawn(nx, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) {
        const summary = output
          .split('\n')
          .map((l) => l.trim())
          .find((l) => /Successfully ran target build/.test(l));
        const cached = output.match(/Nx read the output from the cache instead of running the command for (\d+) out of (\d+) tasks/);
        resolve(`${summary ?? 'build done'}${cached ? ` (${cached[1]} of ${cached[2]} from cache)` : ''}`);
      } else {
        log.error(output.trim());
        reject(new Error(`the build failed (nx exit code ${code}); output above`));
      }
    });
  });
}

/**
 * Links every workspace package (apps/*, libs/*) under node_modules/ by its package name, as `npm install` does.
 * A lib added to the repository after the last install is otherwise unresolvable at run time. Existing entries are
 * left alone. Returns the names it linked.
 */
export function linkWorkspacePackages(root) {
  const linked = [];
  for (const group of ['apps', 'libs']) {
    const dir = path.join(root, group);
    if (!existsSync(dir)) continue;
    for (const folder of readdirSync(dir)) {
      const manifest = path.join(dir, folder, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (typeof name !== 'string') continue;
      const link = path.join(root, 'node_modules', ...name.split('/'));
      if (pathExists(link)) continue;
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(path.relative(path.dirname(link), path.join(dir, folder)), link, 'dir');
      linked.push(name);
    }
  }
  return linked;
}

function pathExists(file) {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
