import { createHash } from 'node:crypto';

// cNF must be derived from the invoice id, not drawn at random: a resend after an unknown outcome must carry the
// same access key, or the authorizer answers 539 (duplicate with a different key) and a second document may exist.
//
// Layout rules on cNF (MOC 4.00 / NT 2019.001, ide/cNF): it may not equal nNF (rejection 897 family) and the
// trivially guessable sequences are refused, so the derivation skips them deterministically by re-hashing.

const FORBIDDEN = new Set([
  '00000000',
  '11111111',
  '22222222',
  '33333333',
  '44444444',
  '55555555',
  '66666666',
  '77777777',
  '88888888',
  '99999999',
  '12345678',
  '23456789',
  '34567890',
  '45678901',
  '56789012',
  '67890123',
  '78901234',
  '89012345',
  '90123456',
  '01234567',
]);

function candidate(invoiceId: string, attempt: number): string {
  const digest = createHash('sha256').update(`${invoiceId}\u0000${attempt}`).digest();
  return (digest.readBigUInt64BE(0) % 100_000_000n).toString().padStart(8, '0');
}

/**
 * The 8-digit cNF for an invoice: a SHA-256 of the invoice id reduced to 8 digits, never equal to the document
 * number (compared numerically, as nNF has no leading zeros) and never one of the forbidden sequences.
 */
export function deriveNumericCode(invoiceId: string, documentNumber: number): string {
  if (invoiceId.length === 0) throw new RangeError('invoiceId must not be empty');
  for (let attempt = 0; ; attempt++) {
    const code = candidate(invoiceId, attempt);
    if (!FORBIDDEN.has(code) && Number(code) !== documentNumber) return code;
  }
}
