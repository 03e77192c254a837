// The crash specs' load: numbered requests from concurrent clients while a worker is killed at moments of the load
// and started again each time.
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadUnderKills {
  /** How many requests (numbered from 0). */
  requests: number;
  /** How many clients send them at once, each sending its next request once its answer arrived. */
  clients: number;
  /** SIGKILLs the worker, then starts a fresh process with the same environment. */
  restart: () => Promise<unknown>;
}

/**
 * Sends every request through `send` while the worker is killed: first once a tenth of the requests are answered (so
 * every run kills at least once, mid-load, however fast the machine finishes the load), then every 0.4 to 1.6 s until
 * the last answer. Resolves with how many kills.
 */
export async function sendWhileKilling(load: LoadUnderKills, send: (index: number) => Promise<void>): Promise<number> {
  let finished = false;
  let answered = 0;
  const firstKillAfter = Math.max(1, Math.floor(load.requests / 10));
  const kills = (async () => {
    while (!finished && answered < firstKillAfter) await sleep(5);
    let count = 0;
    while (!finished) {
      await load.restart();
      count += 1;
      await sleep(400 + Math.floor(Math.random() * 1_200));
    }
    return count;
  })();
  let next = 0;
  const client = async () => {
    for (let index = next++; index < load.requests; index = next++) {
      await send(index);
      answered += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: load.clients }, client));
  } finally {
    finished = true;
  }
  return kills;
}
