// One `npm start` per checkout: two launchers would share .data/ (the embedded PostgreSQL's folder, the simulator's
// data) and revoke each other's demo keys. The first writes .data/launcher.pid; a second one stops with a clear
// message while that process lives, and takes over a file left by a launcher that died.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class AlreadyRunningError extends Error {}

/** Claims the checkout for this process; returns a release function (also run at exit). */
export function claimCheckout(dataDir) {
  const file = path.join(dataDir, 'launcher.pid');
  mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      const release = () => {
        if (readPid(file) === process.pid) rmSync(file, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = readPid(file);
    if (holder && holder !== process.pid && isLauncher(holder)) {
      throw new AlreadyRunningError(
        `npm start is already running in this checkout (pid ${holder}); stop it first (Ctrl-C, or kill ${holder})`,
      );
    }
    rmSync(file, { force: true }); // left by a launcher that died
  }
  throw new AlreadyRunningError(`could not claim ${file}; another npm start is starting at this moment`);
}

function readPid(file) {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isLauncher(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  // A recycled pid belongs to some other program: only a live launcher counts. Without /proc, trust the pid.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start.mjs');
  } catch {
    return true;
  }
}
