// The answer of a route whose request the authorizer refused (an event, an invalidation): 502 with the authorizer's
// own message and code in `detail`, beside the ids of what was refused.

export function refusedByAuthorizer(
  decided: { statusMessage: string | null; statusCode: string | null },
  fallbackMessage: string,
  ids: Record<string, string>,
) {
  return {
    status: 502 as const,
    body: { detail: { message: decided.statusMessage ?? fallbackMessage, code: decided.statusCode, ...ids } },
  };
}
