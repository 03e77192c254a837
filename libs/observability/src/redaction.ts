// Field names that hold secrets wherever they appear in a log line: credentials, certificate payloads, passwords.
// pino's redaction works on paths, so each name is listed at the top level and one and two levels down
// (`{ body: { password } }`, `{ input: { certificate: { password } } }`).
const SECRET_FIELDS = [
  'authorization',
  'password',
  'pkcs12',
  'pkcs12_base64',
  'pkcs12Base64',
  'pfx',
  'secret',
  'apiKey',
  'api_key_value',
  'key',
  'token',
  'adminToken',
  'certificateEncryptionKey',
  'privateKey',
];

export const REDACTED = '[redacted]';

export const REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];
