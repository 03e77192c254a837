// CPU time per NFeAutorizacao4 call of the simulator, in process (no TLS, no sockets): the SOAP dispatch, XSD,
// every NF-e rule and the signature check, on pre-signed NF-e. Prints µs of CPU per authorization and a digest of
// every answer (a fixed clock makes answers reproducible, so a change that must not alter bytes can be checked).
//   node --import ./bench/support/register-ts.mjs apps/authorizer-sim/scripts/authorization-cpu.bench.ts [count] [variants]
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSoapEnvelope } from '@talao/authorizer-clients';
import { buildEnviNFe } from '@talao/fiscal-xml';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { loadPkcs12 } from '@talao/xml-signing';
import { type FixtureOptions, signedFixture } from '../../../e2e/authorizers/support/nfe-fixture.js';
import { SimClock } from '../src/clock.js';
import { FaultBook } from '../src/control/fault-settings.js';
import { NfseState } from '../src/nfse/nfse-state.js';
import { type SimServices } from '../src/sefaz/sefaz-context.js';
import { dispatchSoap } from '../src/sefaz/soap-dispatch.js';
import { DistributionFeed } from '../src/state/distribution-feed.js';
import { SefazState } from '../src/state/sefaz-state.js';

const COUNT = Number(process.argv[2] ?? 2000);
const CNPJ = '11222333000181';
const FIXED_NOW = new Date('2026-03-10T12:00:00Z');

class FixedClock extends SimClock {
  override now(): Date {
    return new Date(FIXED_NOW.getTime() + this.offset());
  }
}

const endpoint = { operation: 'NFeAutorizacao4', method: 'nfeAutorizacaoLote' };
const contentType =
  'application/soap+xml; charset=utf-8; action="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4/nfeAutorizacaoLote"';
const call = { authorizer: 'SP', tpAmb: '2' as const, transmitterTaxId: CNPJ };

// The CA, certificate and signed NF-e are kept in a file, so that runs before and after a change send the same bytes.
const corpusFile = process.env.CORPUS_FILE ?? join(tmpdir(), `authorization-cpu-corpus-${COUNT}.json`);
interface Corpus {
  caCertificatePem: string;
  envelopes: string[];
  variants: string[];
}
const corpus: Corpus = existsSync(corpusFile) ? (JSON.parse(readFileSync(corpusFile, 'utf8')) as Corpus) : createCorpus();
if (!existsSync(corpusFile)) writeFileSync(corpusFile, JSON.stringify(corpus));

function createCorpus(): Corpus {
  const ca = createTestCertificateAuthority();
  const certificate = loadPkcs12(
    ca.issueA1({
      taxId: CNPJ,
      legalName: 'EMPRESA TESTE LTDA',
      password: 'p',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    }),
    'p',
  );
  const lot = (number: number, options: Partial<FixtureOptions> = {}) =>
    buildEnviNFe({
      lotId: '1',
      signedNfe: signedFixture(certificate, { cnpj: CNPJ, number, issuedAt: new Date(FIXED_NOW.getTime() - 60_000), ...options }).signedNfe,
    });
  const envelope = (message: string) => buildSoapEnvelope(endpoint, message);
  const envelopes = Array.from({ length: COUNT }, (_, i) => envelope(lot(i + 1)));
  // Answers other than 100, and lots the in-place verification must leave to the text path: their answers are part
  // of the digest, so a change that alters any of them shows.
  const base = 900_000;
  const variants = [
    lot(base + 1, { wrongTotal: true }),
    lot(base + 2, { tpAmb: '1' }),
    lot(base + 3, { recipientName: 'CLIENTE' }),
    lot(base + 4, { issuedAt: new Date(FIXED_NOW.getTime() + 3_600_000) }),
    lot(base + 5, { issuedAt: new Date(FIXED_NOW.getTime() - 40 * 86_400_000) }),
    lot(base + 6, { tpEmis: 6 }),
    lot(base + 7, { numericCode: '87654321' }).replace('<nNF>900007</nNF>', '<nNF>900008</nNF>'),
    lot(base + 9).replace(/<DigestValue>[^<]+/, '<DigestValue>AAAAAAAAAAAAAAAAAAAAAAAAAAA='),
    lot(base + 10).replace(/<SignatureValue>(.)/, (_m, c: string) => `<SignatureValue>${c === 'A' ? 'B' : 'A'}`),
    lot(base + 11).replace(/<xProd>/, '<xProd>X'),
    lot(base + 12).replace('<idLote>', '<!-- c --><idLote>'),
    lot(base + 13).replace('<idLote>1</idLote>', '<idLote>x</idLote>'),
    lot(base + 14).replace('<indSinc>1</indSinc>', '<indSinc>0</indSinc>'),
    lot(base + 15).replace(/ Id="NFe(\d)/, ' Id="NFe9'),
    lot(base + 16).replace(/<X509Certificate>[^<]+/, '<X509Certificate>AAAA'),
    lot(base + 17).replace('http://www.w3.org/2000/09/xmldsig#rsa-sha1', 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'),
    lot(base + 18)
      .replace(
        '<enviNFe xmlns="http://www.portalfiscal.inf.br/nfe"',
        '<n:enviNFe xmlns:n="http://www.portalfiscal.inf.br/nfe" xmlns="http://www.portalfiscal.inf.br/nfe"',
      )
      .replace('</enviNFe>', '</n:enviNFe>'),
    lot(base + 19).replace('<infAdic>', '<infAdic>'),
    lot(base + 1),
  ].map(envelope);
  variants.push(envelopes[0] as string); // already authorized: 204
  return { caCertificatePem: ca.caCertificatePem, envelopes, variants };
}
const services: SimServices = {
  state: new SefazState(),
  feed: new DistributionFeed(),
  clock: new FixedClock(),
  faults: new FaultBook(),
  trustedCa: new X509Certificate(corpus.caCertificatePem),
  nfse: new NfseState(),
  nationalKey: { privateKeyPem: '', certificateBase64: '' },
};

const { envelopes } = corpus;

const digest = createHash('sha256');
const warmUp = Math.min(200, COUNT);
for (let i = 0; i < warmUp; i++) digest.update(dispatchSoap(endpoint, call, services, contentType, envelopes[i] as string).body);
const start = process.cpuUsage();
const wallStart = performance.now();
let authorized = 0;
for (let i = warmUp; i < COUNT; i++) {
  const answer = dispatchSoap(endpoint, call, services, contentType, envelopes[i] as string).body;
  if (answer.includes('<cStat>100</cStat>')) authorized++;
  digest.update(answer);
}
const used = process.cpuUsage(start);
const variantCodes: string[] = [];
for (const variant of corpus.variants) {
  const answer = dispatchSoap(endpoint, call, services, contentType, variant).body;
  variantCodes.push([...answer.matchAll(/<cStat>(\d+)<\/cStat>/g)].map((m) => m[1]).join('/'));
  digest.update(answer);
}
const measured = COUNT - warmUp;
console.log(
  `${measured} authorizations (${authorized} authorized): ${((used.user + used.system) / measured).toFixed(1)} µs CPU each ` +
    `(user ${(used.user / measured).toFixed(1)}), wall ${(((performance.now() - wallStart) * 1000) / measured).toFixed(1)} µs; answers sha256 ${digest.digest('hex').slice(0, 16)}`,
);
console.log(`variants: ${variantCodes.join(' ')}`);
