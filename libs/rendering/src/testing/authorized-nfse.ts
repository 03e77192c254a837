// Test support: authorized NFS-e (NFSe v1.01) as the Sefin Nacional returns them — the signed DPS inside infNFSe with
// the values the authorizer computes (ISSQN, retentions, net value, IBS/CBS totals at the given rates) — built from
// a DPS of the platform's own pipeline (fiscal-model → fiscal-xml) or from a real DPS sample. Checked with xmllint
// against the official NFSe_v1.01.xsd.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { computeDpsDocument, findMunicipality, modulus11CheckDigit, validateInvoiceRequest } from '@talao/fiscal-model';
import { sampleIssuer, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { buildSignValidateDps, childOf, element, parseXmlTree, rootOf, textElement, textOf, type XmlObject } from '@talao/fiscal-xml';
import { createTestCertificate, signNfseWithXmlCrypto, type TestCertificate } from '@talao/fiscal-xml/testing';

// This file is libs/rendering/src/testing/: four levels below the repository root.
export const FISCAL_FIXTURES = fileURLToPath(new URL('../../../../fixtures/fiscal/', import.meta.url));

export function readFiscalSample(relativePath: string): string {
  return readFileSync(`${FISCAL_FIXTURES}samples/${relativePath}`, 'utf8');
}

let certificate: TestCertificate | undefined;
const cert = () => (certificate ??= createTestCertificate('TALAO DEMONSTRACAO LTDA:11222333000181'));

export interface NfseRates {
  /** ISSQN rate applied (pAliqAplic), percent. */
  readonly iss: string;
  readonly ibsState: string;
  readonly ibsCity: string;
  readonly cbs: string;
}

/** 2026, the reform's test year: IBS 0.1 % (state), CBS 0.9 %. */
export const DEFAULT_NFSE_RATES: NfseRates = { iss: '2.00', ibsState: '0.10', ibsCity: '0.00', cbs: '0.90' };

export interface AuthorizedNfse {
  readonly xml: string;
  readonly accessKey: string;
  readonly providerName: string;
  readonly net: string;
  readonly retentions: string;
}

const path = (node: XmlObject | undefined, steps: string): XmlObject | undefined =>
  steps.split('/').reduce<XmlObject | undefined>((current, name) => (current ? childOf(current, name) : undefined), node);
const text = (node: XmlObject | undefined, steps: string): string => {
  const names = steps.split('/');
  const last = names.pop() as string;
  const parent = names.length ? path(node, names.join('/')) : node;
  return (parent && textOf(parent, last)) ?? '';
};
const dec = (value: string) => new Decimal(value || '0');
const money = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed(2);

/** The NFS-e key: municipality (7), ambGer, registration type, CPF/CNPJ (14), number (13), AAMM, code (9), DV. */
function accessKeyFor(municipality: string, taxId: string, number: number, issuedAt: string): string {
  const body = `${municipality}2${taxId.length === 11 ? '1' : '2'}${taxId.padStart(14, '0')}${String(number).padStart(13, '0')}${issuedAt.slice(2, 4)}${issuedAt.slice(5, 7)}123456789`;
  return body + String(modulus11CheckDigit(body));
}

/** Wraps a signed DPS into the NFS-e the Sefin Nacional would return for it (cStat 100), signed. */
export function authorizeDps(
  signedDps: string,
  options: { number?: number; rates?: NfseRates; providerName?: string } = {},
): AuthorizedNfse {
  const rates = options.rates ?? DEFAULT_NFSE_RATES;
  const dps = path(rootOf(parseXmlTree(signedDps)).node, 'infDPS');
  const number = options.number ?? 42;
  const prest = path(dps, 'prest');
  const taxId = text(prest, 'CNPJ') || text(prest, 'CPF');
  const municipality = text(dps, 'cLocEmi');
  const place = findMunicipality(municipality);
  const key = accessKeyFor(municipality, taxId, number, text(dps, 'dhEmi'));
  const service = dec(text(dps, 'valores/vServPrest/vServ'));
  const unconditional = dec(text(dps, 'valores/vDescCondIncond/vDescIncond'));
  const conditional = dec(text(dps, 'valores/vDescCondIncond/vDescCond'));
  const base = service.minus(unconditional);
  const iss = base.times(rates.iss).dividedBy(100);
  const issRetained = ['2', '3'].includes(text(dps, 'valores/trib/tribMun/tpRetISSQN'));
  const fed = path(dps, 'valores/trib/tribFed');
  const pisCofinsRetained = ['1', '3', '4'].includes(text(fed, 'piscofins/tpRetPisCofins'));
  const retentions = dec(text(fed, 'vRetCP'))
    .plus(dec(text(fed, 'vRetIRRF')))
    .plus(dec(text(fed, 'vRetCSLL')))
    .plus(issRetained ? iss : 0)
    .plus(pisCofinsRetained ? dec(text(fed, 'piscofins/vPis')).plus(dec(text(fed, 'piscofins/vCofins'))) : 0);
  const net = service.minus(unconditional).minus(conditional).minus(retentions);
  const cityName = place?.name ?? municipality;
  const providerName = options.providerName ?? 'TALAO DEMONSTRACAO LTDA';

  let reform = '';
  if (path(dps, 'IBSCBS')) {
    const ibsState = base.times(rates.ibsState).dividedBy(100);
    const ibsCity = base.times(rates.ibsCity).dividedBy(100);
    const cbs = base.times(rates.cbs).dividedBy(100);
    reform = element(
      'IBSCBS',
      textElement('cLocalidadeIncid', municipality) +
        textElement('xLocalidadeIncid', cityName) +
        element(
          'valores',
          textElement('vBC', money(base)) +
            element('uf', textElement('pIBSUF', rates.ibsState) + textElement('pAliqEfetUF', rates.ibsState)) +
            element('mun', textElement('pIBSMun', rates.ibsCity) + textElement('pAliqEfetMun', rates.ibsCity)) +
            element('fed', textElement('pCBS', rates.cbs) + textElement('pAliqEfetCBS', rates.cbs)),
        ) +
        element(
          'totCIBS',
          textElement('vTotNF', money(net.plus(ibsState).plus(ibsCity).plus(cbs))) +
            element(
              'gIBS',
              textElement('vIBSTot', money(ibsState.plus(ibsCity))) +
                element('gIBSUFTot', textElement('vIBSUF', money(ibsState))) +
                element('gIBSMunTot', textElement('vIBSMun', money(ibsCity))),
            ) +
            element('gCBS', textElement('vCBS', money(cbs))),
        ),
    );
  }
  const emit =
    textElement('CNPJ', taxId) +
    textElement('IM', text(prest, 'IM') || '12345678') +
    textElement('xNome', providerName) +
    element(
      'enderNac',
      textElement('xLgr', 'Avenida Paulista') +
        textElement('nro', '1000') +
        textElement('xBairro', 'Bela Vista') +
        textElement('cMun', municipality) +
        textElement('UF', place?.state ?? 'SP') +
        textElement('CEP', '01310100'),
    );
  const values =
    textElement('vBC', money(base)) +
    textElement('pAliqAplic', rates.iss) +
    textElement('vISSQN', money(iss)) +
    (retentions.isZero() ? '' : textElement('vTotalRet', money(retentions))) +
    textElement('vLiq', money(net));
  const info =
    textElement('xLocEmi', cityName) +
    textElement('xLocPrestacao', cityName) +
    textElement('nNFSe', String(number)) +
    textElement('cLocIncid', municipality) +
    textElement('xLocIncid', cityName) +
    textElement('xTribNac', 'Suporte técnico, manutenção e outros serviços em tecnologia da informação.') +
    textElement('verAplic', 'SefinNac-TEST-1.0') +
    textElement('ambGer', '2') +
    textElement('tpEmis', '1') +
    textElement('procEmi', '1') +
    textElement('cStat', '100') +
    textElement('dhProc', text(dps, 'dhEmi')) +
    textElement('nDFSe', String(1000 + number)) +
    element('emit', emit) +
    element('valores', values) +
    reform +
    signedDps.replace(/^<\?xml[^>]*>\s*/, '');
  const unsigned = element('NFSe', element('infNFSe', info, { Id: `NFS${key}` }), {
    xmlns: 'http://www.sped.fazenda.gov.br/nfse',
    versao: '1.01',
  });
  const xml = signNfseWithXmlCrypto(unsigned, `NFS${key}`, cert());
  return { xml, accessKey: key, providerName, net: money(net), retentions: money(retentions) };
}

/** An NFS-e from the platform's own pipeline: sampleNfseRequest (IBS/CBS, no retention) → DPS → NFS-e. */
export function authorizedNfse(options: { number?: number; environment?: 'homologation' | 'production' } = {}): AuthorizedNfse {
  const issuer = sampleIssuer('simples_nacional');
  const validated = validateInvoiceRequest(sampleNfseRequest(), issuer, { now: new Date('2026-03-10T15:00:00Z') });
  if (!validated.ok) throw new Error(`sample request refused: ${JSON.stringify(validated.errors)}`);
  const document = computeDpsDocument(validated.value, issuer, {
    environment: options.environment ?? 'homologation',
    series: 1,
    number: 77,
    issuedAt: new Date('2026-03-10T15:00:00Z'),
  });
  const signed = buildSignValidateDps(document, { signDps: (xml, id) => signNfseWithXmlCrypto(xml, id, cert()) });
  return authorizeDps(signed.xml, { number: options.number, providerName: issuer.legalName });
}

/** The real DPS sample with federal retentions (IRRF, CSLL, PIS/COFINS) and IBS/CBS, signed and authorized. */
export function authorizedNfseWithRetention(): AuthorizedNfse {
  const sample = readFiscalSample('nfse/DPS_v1.01_IBSCBS_with_retention.xml').trim();
  const id = /Id="([^"]+)"/.exec(sample)?.[1] ?? '';
  return authorizeDps(signNfseWithXmlCrypto(sample, id, cert()), { number: 59, providerName: 'OFICINA DE REPAROS EXEMPLO LTDA' });
}

/** xmllint against the official NFSe_v1.01.xsd: undefined when valid, the errors otherwise. */
export function nfseSchemaErrors(xml: string): string | undefined {
  const run = spawnSync('xmllint', ['--noout', '--schema', `${FISCAL_FIXTURES}schemas/nfse/v1.01/NFSe_v1.01.xsd`, '-'], {
    input: xml,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  return run.status === 0 ? undefined : run.stderr;
}
