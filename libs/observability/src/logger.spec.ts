import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { resolveRequestId } from './request-id.js';

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: createLogger({ name: 'test', level: 'info', destination }), lines };
}

describe('createLogger', () => {
  it('writes JSON with the level label and redacts secrets at any depth', () => {
    const { logger, lines } = captureLogger();
    logger.info(
      {
        req: { headers: { authorization: 'Bearer talao_hml_x' } },
        password: 'p',
        body: { pkcs12_base64: 'MII', certificate: { password: 'q' } },
      },
      'hello',
    );
    const line = lines[0]!;
    expect(line.level).toBe('info');
    expect(line.msg).toBe('hello');
    const text = JSON.stringify(line);
    expect(text).not.toContain('talao_hml_x');
    expect(text).not.toContain('MII');
    expect(text).not.toMatch(/"password":"[pq]"/);
    expect(line.password).toBe('[redacted]');
  });
});

describe('resolveRequestId', () => {
  it('keeps a sane incoming id', () => {
    expect(resolveRequestId('abc-123_X.y:z')).toBe('abc-123_X.y:z');
    expect(resolveRequestId(['first', 'second'])).toBe('first');
  });

  it('replaces an insane or missing id with a UUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(resolveRequestId(undefined)).toMatch(uuid);
    expect(resolveRequestId('has spaces')).toMatch(uuid);
    expect(resolveRequestId('x'.repeat(129))).toMatch(uuid);
    expect(resolveRequestId('line\nbreak')).toMatch(uuid);
  });
});
