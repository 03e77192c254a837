// Apps log structured JSON (pino). In a terminal a line like
//   {"level":"info","time":"2026-11-22T00:00:00.000Z","request_id":"…","req":{"method":"GET","path":"/readyz"},"res":{"status":200},"responseTime":3,"msg":"request completed"}
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
  if (!entry || typeof entry !== 'object' || entry.level === undefined) return line;
  // pino writes the level as a number by default, or as a label when a formatter says so (the apps' loggers do).
  const level = typeof entry.level === 'number' ? (LEVELS[entry.level] ?? String(entry.level)) : String(entry.level).toUpperCase();
  const parts = [level.padEnd(5)];
  if (entry.context) parts.push(`[${entry.context}]`);
  if (entry.msg) parts.push(entry.msg);
  // pino-http's default shape (req.url, res.statusCode) or the apps' serializers (req.path, res.status).
  if (entry.req?.method) parts.push(`${entry.req.method} ${entry.req.path ?? entry.req.url ?? ''}`.trim());
  const status = entry.res?.status ?? entry.res?.statusCode;
  if (status) parts.push(String(status));
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime}ms`);
  const error = entry.err ?? entry.error;
  if (error?.message) parts.push(`— ${error.message}`);
  if (error?.stack && ['ERROR', 'FATAL'].includes(level)) parts.push(`\n${error.stack}`);
  return parts.join(' ').replace(' \n', '\n');
}
