import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { CertificateError } from './certificate-error.js';
import { extractTaxId } from './icp-brasil-tax-id.js';

/** An A1 certificate ready for node:crypto: PEM key and certificate plus what callers display or check. */
export interface A1Certificate {
  /** PKCS#8 PEM, unencrypted: keep it in memory only. */
  privateKeyPem: string;
  certificatePem: string;
  /** DER of the certificate in base64, as it goes into `KeyInfo/X509Data/X509Certificate`. */
  certificateBase64: string;
  /** The other certificates of the file (issuer first when the chain can be ordered), PEM. */
  chainPem: string[];
  /** Subject DN as "CN=…, OU=…, O=…, C=…" (most specific first). */
  subjectName: string;
  issuerName: string;
  /** Serial number in upper-case hex. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** CNPJ (14, may be alphanumeric) or CPF (11) of the holder; see extractTaxId. */
  taxId: string | null;
}

const MAX_PKCS12_BYTES = 64 * 1024;

/**
 * Iterations one key derivation of the file may ask for (its MAC key, each encrypted container's key and IV, each
 * shrouded private key). Real A1 files use 2,048 or fewer (OpenSSL's default; Windows and the ICP-Brasil issuers'
 * tools as well). forge derives PKCS#12 keys in pure JavaScript at about 2 µs an iteration and the count is the
 * file's to choose: 3 million blocked the event loop for 6 s, 2^31−1 would for an hour.
 */
export const MAX_KDF_ITERATIONS = 10_000;
/**
 * All derivations of one file together: room for a MAC and a dozen encrypted parts at the bound, no more. This
 * bounds the work at about a quarter of a second of CPU. There is deliberately no wall-clock budget as well: on a
 * loaded host a real 2,048-iteration file can wait seconds for the CPU, and it must not then be refused.
 */
const MAX_TOTAL_KDF_ITERATIONS = 120_000;
/** More keys or certificates than any A1 holds; each key is tried against each certificate. */
const MAX_BAGS = 16;

type KeyDerivation = (...args: unknown[]) => unknown;

/**
 * Runs forge's PKCS#12 reader with every key derivation checked before it starts: its iteration count (bounded
 * one by one and in total). forge reads its derivation functions from its own module
 * objects at each call, so they are wrapped for the duration of this synchronous call only (nothing else can run
 * in between) and always restored.
 */
function withBoundedKeyDerivation<T>(work: () => T): T {
  const pkcs12 = forge.pkcs12 as unknown as { generateKey: KeyDerivation };
  const pbe = (forge.pki as unknown as { pbe: { generatePkcs12Key: KeyDerivation } }).pbe;
  const pkcs5 = forge.pkcs5 as unknown as { pbkdf2: KeyDerivation };
  const original = { mac: pkcs12.generateKey, pbe: pbe.generatePkcs12Key, pbkdf2: pkcs5.pbkdf2 };
  let total = 0;
  const admit = (count: unknown) => {
    const iterations = typeof count === 'number' ? count : Number.NaN;
    if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_KDF_ITERATIONS) {
      throw new CertificateError(
        'KEY_DERIVATION_TOO_COSTLY',
        `The PKCS#12 asks for ${String(count)} key-derivation iterations; at most ${MAX_KDF_ITERATIONS} are accepted`,
      );
    }
    total += iterations;
    if (total > MAX_TOTAL_KDF_ITERATIONS) {
      throw new CertificateError('KEY_DERIVATION_TOO_COSTLY', 'The PKCS#12 asks for more key-derivation work than an A1 certificate needs');
    }
  };
  // PKCS#12 KDF: (password, salt, id, iterations, length, md); PBKDF2: (password, salt, iterations, length, md).
  pkcs12.generateKey = (...args) => (admit(args[3]), original.mac(...args));
  pbe.generatePkcs12Key = (...args) => (admit(args[3]), original.pbe(...args));
  pkcs5.pbkdf2 = (...args) => (admit(args[2]), original.pbkdf2(...args));
  try {
    return work();
  } finally {
    pkcs12.generateKey = original.mac;
    pbe.generatePkcs12Key = original.pbe;
    pkcs5.pbkdf2 = original.pbkdf2;
  }
}

interface ParsedBags {
  keys: KeyObject[];
  certificates: X509Certificate[];
}

function parsePfx(pfx: Buffer, password: string): forge.pkcs12.Pkcs12Pfx {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary')));
  } catch (error) {
    throw new CertificateError('INVALID_PKCS12', 'The file is not a PKCS#12 (DER) certificate', { cause: error });
  }
  try {
    return withBoundedKeyDerivation(() => forge.pkcs12.pkcs12FromAsn1(asn1, false, password));
  } catch (error) {
    if (error instanceof CertificateError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // forge reports a MAC mismatch for a wrong password; without a MAC a wrong password garbles the decrypted
    // content, which surfaces as an ASN.1 or padding error inside an encrypted bag.
    if (/MAC could not be verified|Invalid password|decrypt/i.test(message)) {
      throw new CertificateError('WRONG_PASSWORD', 'Wrong certificate password', { cause: error });
    }
    throw new CertificateError('INVALID_PKCS12', `Unreadable PKCS#12: ${message}`, { cause: error });
  }
}

function derOf(node: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');
}

function collectBags(p12: forge.pkcs12.Pkcs12Pfx): ParsedBags {
  const keys: KeyObject[] = [];
  const certificates: X509Certificate[] = [];
  for (const bagType of [forge.pki.oids.pkcs8ShroudedKeyBag, forge.pki.oids.keyBag]) {
    for (const bag of p12.getBags({ bagType: bagType as string })[bagType as string] ?? []) {
      // forge only models RSA keys; anything else is still available as its PrivateKeyInfo ASN.1.
      const der = bag.key ? derOf(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key))) : bag.asn1 ? derOf(bag.asn1) : null;
      if (der) keys.push(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
    }
  }
  const certBagType = forge.pki.oids.certBag as string;
  for (const bag of p12.getBags({ bagType: certBagType })[certBagType] ?? []) {
    const der = bag.cert ? derOf(forge.pki.certificateToAsn1(bag.cert)) : bag.asn1 ? derOf(bag.asn1) : null;
    if (der) certificates.push(new X509Certificate(der));
  }
  if (keys.length > MAX_BAGS || certificates.length > MAX_BAGS) {
    throw new CertificateError('INVALID_PKCS12', `The PKCS#12 holds more than ${MAX_BAGS} keys or certificates`);
  }
  return { keys, certificates };
}

/**
 * A file may hold several keys and certificates (a renewed certificate next to the old one, the CA chain). The
 * signing pair is the certificate whose public key matches a private key; if several certificates match, the one
 * valid longest (latest notAfter) wins. Every other certificate goes to the chain.
 */
function pickSigningPair(bags: ParsedBags): { key: KeyObject; certificate: X509Certificate } {
  if (bags.keys.length === 0) throw new CertificateError('NO_PRIVATE_KEY', 'The PKCS#12 has no private key');
  if (bags.certificates.length === 0) throw new CertificateError('NO_CERTIFICATE', 'The PKCS#12 has no certificate');
  let best: { key: KeyObject; certificate: X509Certificate } | null = null;
  for (const key of bags.keys) {
    for (const certificate of bags.certificates) {
      if (!certificate.checkPrivateKey(key)) continue;
      if (!best || certificate.validToDate > best.certificate.validToDate) best = { key, certificate };
    }
  }
  if (!best) {
    throw new CertificateError('NO_CERTIFICATE', 'No certificate in the PKCS#12 matches its private key');
  }
  return best;
}

/** Orders the remaining certificates from the leaf's issuer upwards; unrelated ones follow in file order. */
function orderChain(leaf: X509Certificate, others: X509Certificate[]): X509Certificate[] {
  const ordered: X509Certificate[] = [];
  const pool = [...others];
  let current = leaf;
  for (;;) {
    const index = pool.findIndex((candidate) => current.checkIssued(candidate) && candidate !== current);
    if (index < 0) break;
    const [issuer] = pool.splice(index, 1);
    if (!issuer || issuer.fingerprint256 === current.fingerprint256) break;
    ordered.push(issuer);
    current = issuer;
  }
  return [...ordered, ...pool];
}

function distinguishedName(multiline: string): string {
  return multiline.split('\n').filter(Boolean).reverse().join(', ');
}

function commonName(multiline: string): string | null {
  const line = multiline.split('\n').find((entry) => entry.startsWith('CN='));
  return line ? line.slice(3) : null;
}

/**
 * Reads an A1 certificate (PKCS#12). node-forge does the parsing because real A1 files often use the legacy
 * RC2-40 encryption that node:crypto (OpenSSL 3 without the legacy provider) refuses; the key and certificate are
 * then handed to node:crypto.
 */
export function loadPkcs12(pfx: Buffer, password: string): A1Certificate {
  if (pfx.length === 0 || pfx.length > MAX_PKCS12_BYTES) {
    throw new CertificateError('INVALID_PKCS12', `A PKCS#12 certificate must have 1..${MAX_PKCS12_BYTES} bytes`);
  }
  try {
    return readA1(pfx, password);
  } catch (error) {
    // Whatever the file holds, the caller gets a CertificateError: a bag node:crypto cannot read (a garbage keyBag
    // or certBag in a file without MAC) threw its own errors, which became 500s.
    if (error instanceof CertificateError) throw error;
    throw new CertificateError('INVALID_PKCS12', 'The PKCS#12 holds a key or certificate that cannot be read', { cause: error });
  }
}

function readA1(pfx: Buffer, password: string): A1Certificate {
  const p12 = parsePfx(pfx, password);
  const bags = collectBags(p12);
  const { key, certificate } = pickSigningPair(bags);
  const others = bags.certificates.filter((candidate) => candidate.fingerprint256 !== certificate.fingerprint256);
  const unique = others.filter(
    (candidate, index) => others.findIndex((other) => other.fingerprint256 === candidate.fingerprint256) === index,
  );
  return {
    privateKeyPem: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
    certificatePem: certificate.toString(),
    certificateBase64: certificate.raw.toString('base64'),
    chainPem: orderChain(certificate, unique).map((entry) => entry.toString()),
    subjectName: distinguishedName(certificate.subject),
    issuerName: distinguishedName(certificate.issuer),
    serialNumber: certificate.serialNumber.toUpperCase(),
    notBefore: certificate.validFromDate,
    notAfter: certificate.validToDate,
    taxId: extractTaxId(certificate.raw, commonName(certificate.subject)),
  };
}
