// Apps log structured JSON (pino). In a terminal a line like
//   {"level":30,"time":1763770000000,"reqId":"…","req":{"method":"GET","url":"/readyz"},"res":{"statusCode":200},"responseTime":3,"msg":"request completed"}
// is easier to read as
//   INFO  request completed GET /readyz 200 3ms
// LOG_FORMAT=json keeps the raw lines (for piping into a log tool).
const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** A readable one-line form of a pino JSON line; any other line is returned as it is. */
export function formatLogLine(line) {
  if (process.env.LOG_FORMAT === 'json' || !line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (!entry || typeof entry !== 'object' || typeof entry.level !== 'number') return line;
  const parts = [(LEVELS[entry.level] ?? String(entry.level)).padEnd(5)];
  if (entry.context) parts.push(`[${entry.context}]`);
  if (entry.msg) parts.push(entry.msg);
  if (entry.req?.method) parts.push(`${entry.req.method} ${entry.req.url ?? ''}`.trim());
  if (entry.res?.statusCode) parts.push(String(entry.res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime}ms`);
  const error = entry.err ?? entry.error;
  if (error?.message) parts.push(`— ${error.message}`);
  if (error?.stack && entry.level >= 50) parts.push(`\n${error.stack}`);
  return parts.join(' ');
}
