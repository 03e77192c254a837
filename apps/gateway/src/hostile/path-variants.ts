// The hostile suite's request targets for one route's path, byte for byte: variants the router and the rate limiter
// must read the same way, and targets no route may be reached by.

/** Spellings of `path` every step must read alike (each answered, never a 5xx). */
export function pathVariants(path: string): [label: string, target: string][] {
  return [
    ['upper case', path.toUpperCase()],
    ['mixed case', path.replace(/[a-z]/, (c) => c.toUpperCase())],
    ['trailing slash', `${path}/`],
    ['double slash', path.replace('/v1/', '/v1//')],
    ['encoded letter', path.replace(/\/([a-z])/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`)],
    ['dot segment', path.replace('/v1/', '/v1/x/../')],
    ['encoded slash', path.replace('/v1/', '/v1%2F')],
    ['encoded NUL', `${path}%00`],
    ['absolute form', `http://127.0.0.1${path}`],
    ['absolute form, other host', `http://evil.example:8080${path}`],
    ['absolute form, upper-case scheme', `HTTP://127.0.0.1${path}`],
    ['long path', `${path}/${'a'.repeat(6_000)}`],
  ];
}

/**
 * Targets answered 400 whatever route they name. A fragment made the router read a shorter path than the scope check
 * and the rate limiter did: `/invoices/#/cancel` ran POST /invoices under the cancel scope and allowance.
 */
export function refusedTargets(path: string): [label: string, target: string][] {
  return [
    ['fragment', `${path}#x`],
    ['fragment naming another operation', `/api/v1/invoices/#/cancel`],
    ['fragment before the query', `${path}#/x?document_type=nfe`],
    ['backslash', path.replace('/v1/', '/v1\\')],
    ['Latin-1 no-break space', `${path}\xa0`],
  ];
}
