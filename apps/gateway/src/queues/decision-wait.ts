// How long a route waits for a worker's decision before it answers 202 (a cancellation, a correction letter, an
// invalidation, a manifestation): its own environment variable, in milliseconds; 10000 when unset, 0 never waits.
import { integer, loadConfig } from '@talao/config';
import { z } from 'zod';

export function decisionWaitMs(variable: string): number {
  const fragment = z.object({ [variable]: integer(10_000, 0) }).transform((env) => env[variable] as number);
  return loadConfig({ waitMs: fragment }).waitMs;
}
