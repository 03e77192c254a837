// The crash specs' load: numbered requests from concurrent clients while a worker is killed at random moments and
// started again each time.
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadUnderKills {
  /** How many requests (numbered from 0). */
  requests: number;
  /** How many clients send them at once, each sending its next request once its answer arrived. */
  clients: number;
  /** SIGKILLs the worker, then starts a fresh process with the same environment. */
  restart: () => Promise<unknown>;
}

/** Sends every request through `send` while the worker is killed every 0.4 to 1.6 s; resolves with how many kills. */
export async function sendWhileKilling(load: LoadUnderKills, send: (index: number) => Promise<void>): Promise<number> {
  let finished = false;
  const kills = (async () => {
    let count = 0;
    while (!finished) {
      await sleep(400 + Math.floor(Math.random() * 1_200));
      if (finished) break;
      await load.restart();
      count += 1;
    }
    return count;
  })();
  let next = 0;
  const client = async () => {
    for (let index = next++; index < load.requests; index = next++) await send(index);
  };
  try {
    await Promise.all(Array.from({ length: load.clients }, client));
  } finally {
    finished = true;
  }
  return kills;
}
