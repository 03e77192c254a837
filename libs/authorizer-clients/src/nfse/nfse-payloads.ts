import { gunzipSync, gzipSync } from 'node:zlib';

const MAX_XML_BYTES = 5 * 1024 * 1024;

/** The national API carries XML as gzip, then base64, inside JSON strings. */
export function gzipBase64(xml: string): string {
  return gzipSync(Buffer.from(xml, 'utf8')).toString('base64');
}

export function gunzipBase64(payload: string): string {
  // maxOutputLength bounds a gzip bomb.
  return gunzipSync(Buffer.from(payload, 'base64'), { maxOutputLength: MAX_XML_BYTES }).toString('utf8');
}

export interface NfseMessage {
  code: string;
  description: string;
  complement?: string;
}

function asMessage(value: unknown): NfseMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const code = v['codigo'] ?? v['Codigo'];
  const description = v['descricao'] ?? v['Descricao'] ?? v['mensagem'] ?? v['Mensagem'];
  if (code === undefined && description === undefined) return undefined;
  const complement = v['complemento'] ?? v['Complemento'];
  return { code: String(code ?? ''), description: String(description ?? ''), ...(complement ? { complement: String(complement) } : {}) };
}

/** Errors in any of the shapes the specs use: `erros[]` (Sefin POST), `erro` (Sefin GET), `Erros[]` (ADN). */
export function readNfseErrors(body: unknown): NfseMessage[] {
  if (typeof body !== 'object' || body === null) return [];
  const b = body as Record<string, unknown>;
  const list = [b['erros'], b['Erros'], b['erro'] === undefined ? undefined : [b['erro']]].find(Array.isArray) as unknown[] | undefined;
  return (list ?? []).map(asMessage).filter((m): m is NfseMessage => m !== undefined);
}

export function parseJsonObject(body: string): Record<string, unknown> {
  const value: unknown = JSON.parse(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object');
  return value as Record<string, unknown>;
}
