import { JOB_DEFINITIONS, type QueueName } from '@talao/queue-contracts';

/**
 * The startup check: every job of the queue has exactly one handler and no handler names an unknown job or a job of
 * another queue. `registered` holds one name per handler registration (duplicates included). Throws with every
 * problem listed, so the worker refuses to start instead of failing jobs later.
 */
export function assertHandlersCover(queue: QueueName, registered: readonly string[]): void {
  const problems: string[] = [];
  const counts = new Map<string, number>();
  for (const name of registered) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const [name, count] of counts) {
    const definition = (JOB_DEFINITIONS as Record<string, { queue: QueueName } | undefined>)[name];
    if (!definition) problems.push(`handler for unknown job "${name}"`);
    else if (definition.queue !== queue) problems.push(`job "${name}" belongs to queue "${definition.queue}", not "${queue}"`);
    if (count > 1) problems.push(`job "${name}" has ${count} handlers`);
  }
  for (const [name, definition] of Object.entries(JOB_DEFINITIONS)) {
    if (definition.queue === queue && !counts.has(name)) problems.push(`job "${name}" has no handler`);
  }
  if (problems.length > 0) throw new Error(`queue "${queue}": ${problems.join('; ')}`);
}
