import { CSTAT_MESSAGES } from './generated/cstat-messages.js';

/**
 * The official text of a cStat (cstat.json), with the bracketed placeholders the real services fill
 * (`[nRec:999999999999999]`, `[chNFe: …]`) replaced by the given values or removed.
 */
export function cstatMessage(code: string, fill: { nRec?: string; chNFe?: string; deadline?: string } = {}): string {
  const text = CSTAT_MESSAGES[code];
  if (!text) throw new Error(`cStat ${code} has no official text`);
  return text
    .replace(/\[chNFe:\s*9+\]/, fill.chNFe ? `[chNFe: ${fill.chNFe}]` : '')
    .replace(/\[nRec:\s*9+\]/, fill.nRec ? `[nRec:${fill.nRec}]` : '')
    .replace('[prazo vigente]', fill.deadline ?? 'prazo vigente')
    .trim();
}
