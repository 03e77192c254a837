// Prefixed, optionally coloured log lines, so the output of the launcher, the infrastructure it starts and every
// app can be told apart in one terminal.
const COLOURS = [36, 35, 33, 32, 34, 31, 96, 95];
const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const width = 10;
let nextColour = 0;

/** @returns {{ info: (msg: string) => void, warn: (msg: string) => void, error: (msg: string) => void, line: (raw: string) => void }} */
export function createLogger(name) {
  const colour = COLOURS[nextColour++ % COLOURS.length];
  const label = name.padEnd(width).slice(0, width);
  const prefix = useColour ? `\x1b[${colour}m${label}\x1b[0m │ ` : `${label} │ `;
  const write = (stream, msg) => {
    for (const text of String(msg).split('\n')) stream.write(`${prefix}${text}\n`);
  };
  return {
    info: (msg) => write(process.stdout, msg),
    warn: (msg) => write(process.stderr, useColour ? `\x1b[33m${msg}\x1b[0m` : msg),
    error: (msg) => write(process.stderr, useColour ? `\x1b[31m${msg}\x1b[0m` : msg),
    line: (raw) => write(process.stdout, raw),
  };
}

/**
 * Splits a child's output stream into lines and hands each complete line to `onLine`; a partial last line is held
 * until the next chunk or the end of the stream.
 */
export function forEachLine(stream, onLine) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const parts = (pending + chunk).split(/\r?\n/);
    pending = parts.pop() ?? '';
    for (const part of parts) if (part.length > 0) onLine(part);
  });
  stream.on('end', () => {
    if (pending.length > 0) onLine(pending);
    pending = '';
  });
}
