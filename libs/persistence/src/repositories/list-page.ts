// What the API's paged lists share: newest first, `page` counted from 1, and the total beside the page.

/** The findMany arguments of a list page: newest first, the id ordering rows of one instant. */
export function newestFirst(query: { page: number; pageSize: number }) {
  return {
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    skip: (query.page - 1) * query.pageSize,
    take: query.pageSize,
  };
}

/**
 * A page and the total, side by side on two pooled connections, not in a transaction: a transaction waits for one
 * connection within Prisma's 2 s maxWait and fails the request when the pool is busy. `total` may then count a row
 * the page missed.
 */
export async function pageWithTotal<R>(total: PromiseLike<number>, rows: PromiseLike<R[]>): Promise<{ total: number; data: R[] }> {
  const [count, data] = await Promise.all([total, rows]);
  return { total: count, data };
}
