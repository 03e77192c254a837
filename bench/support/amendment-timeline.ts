// Where an HTTP cancellation's wall-clock time went, from the marks each step leaves: the client's send and answer
// (the bench's clock), the job's enqueue, pickup and end (BullMQ's job hash, Redis is told the time by the processes
// that move the job), the amendment's filing, its event's storing and its decision (PostgreSQL's now()). One machine,
// one clock. Every figure is the median over the cancellations of one step's duration.
import { QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';

/** The client's view of one request: epoch milliseconds when it was sent and when its answer was read. */
export interface ClientMarks {
  accessKey: string;
  sentAt: number;
  answeredAt: number;
}

/** The marks one cancellation leaves, in the order it leaves them: each step runs from one mark to the next. */
const MARKS = ['sent', 'filed', 'enqueued', 'picked', 'stored', 'decided', 'ended', 'answered'] as const;
const [, ...STEP_ENDS] = MARKS;

type Mark = (typeof MARKS)[number];

/** What each step covers, by the mark that ends it. */
const STEP_LABELS: Record<(typeof STEP_ENDS)[number], string> = {
  filed: 'sent → filed (gateway: auth, rate limit, reads, the amendment row)',
  enqueued: 'filed → enqueued',
  picked: 'enqueued → picked up by the canceller',
  stored: 'picked up → event stored (loads, signing, XSD, the submission row)',
  decided: 'stored → decided (the simulator, the deciding statement)',
  ended: 'decided → job ended (commit, BullMQ completion)',
  answered: 'job ended → answer read by the client (outcome signal, gateway read, response)',
};

const STEPS = STEP_ENDS.map((to, n) => [STEP_LABELS[to], MARKS[n]!, to] as const);

const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : (sorted[Math.floor(sorted.length / 2)] as number);
};

/** The median of each step, one line each, for the cancellations of `company` whose client marks are given. */
export async function describeCancellationTimeline(
  prisma: { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> },
  redis: { url: string; prefix: string },
  companyId: string,
  clients: ClientMarks[],
): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<Array<{ accessKey: string; id: string; filed: number; stored: number; decided: number }>>(
    `SELECT i.access_key AS "accessKey", a.id::text AS id, extract(epoch FROM a.created_at) * 1000 AS filed,
            extract(epoch FROM s.sent_at) * 1000 AS stored, extract(epoch FROM a.registered_at) * 1000 AS decided
     FROM amendments a JOIN invoices i ON i.id = a.invoice_id JOIN submissions s ON s.amendment_id = a.id
     WHERE a.company_id = $1::uuid AND a.kind = 'cancellation'`,
    companyId,
  );
  const byKey = new Map(rows.map((row) => [row.accessKey, row]));
  const queue = new Queue(QUEUE_NAMES.amendments, { connection: { url: redis.url }, prefix: queueKeyPrefix(redis.prefix) });
  const durations = new Map<string, number[]>(STEPS.map(([label]) => [label, []]));
  try {
    for (const client of clients) {
      const row = byKey.get(client.accessKey);
      const job = row && (await queue.getJob(row.id));
      if (!row || !job) continue;
      const marks: Record<Mark, number> = {
        sent: client.sentAt,
        filed: Number(row.filed),
        enqueued: job.timestamp,
        picked: job.processedOn ?? NaN,
        stored: Number(row.stored),
        decided: Number(row.decided),
        ended: job.finishedOn ?? NaN,
        answered: client.answeredAt,
      };
      for (const [label, from, to] of STEPS) durations.get(label)?.push(marks[to] - marks[from]);
    }
  } finally {
    await queue.close();
  }
  return STEPS.map(([label]) => `${label}: ${median(durations.get(label) ?? []).toFixed(1)} ms`);
}
