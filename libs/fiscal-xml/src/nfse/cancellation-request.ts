// NFS-e Nacional cancellation request: pedRegEvento v1.01 with event e101101, sent to
// POST /nfse/{chaveAcesso}/eventos (gzip+base64 in JSON) after being signed on infPedReg.
import { element, textElement, XmlBuildError } from '../writer/canonical-xml.js';
import { formatFiscalDateTime } from '../writer/fiscal-datetime.js';
import { CPF_PATTERN, NUMERIC_CNPJ_PATTERN, requirePattern, requireText } from '../writer/field-rules.js';
import { type FederalTaxId, type FiscalEnvironment, tpAmb } from '../nfe/nfe-common.js';

export const NFSE_NAMESPACE = 'http://www.sped.fazenda.gov.br/nfse';

/** cMotivo of TSCodJustCanc: 1 error in issuance, 2 service not provided, 9 other. */
export type NfseCancellationReason = '1' | '2' | '9';

export interface NfseCancellationInput {
  readonly environment: FiscalEnvironment;
  /** verAplic: the platform's name and version, 1–20 characters. */
  readonly applicationVersion: string;
  readonly author: FederalTaxId;
  /** The NFS-e access key, 50 digits. */
  readonly accessKey: string;
  readonly eventAt: Date;
  readonly utcOffset: string;
  readonly reason: NfseCancellationReason;
  /** 15–255 characters. */
  readonly justification: string;
}

const CANCELLATION_EVENT_TYPE = '101101';

/**
 * Id = "PRE" + access key (50) + event type (6): 59 characters, pattern PRE[0-9]{56}. The older form with
 * nPedRegEvento appended (62 characters, see samples/nfse/negative) is refused by the v1.00 and v1.01 schemas.
 */
export function buildNfseCancellationRequest(input: NfseCancellationInput): { id: string; xml: string } {
  const key = requirePattern(input.accessKey, /^[0-9]{50}$/, 'accessKey', '50-digit NFS-e access key');
  if (input.reason !== '1' && input.reason !== '2' && input.reason !== '9') {
    throw new XmlBuildError(`reason: expected "1", "2" or "9", received ${JSON.stringify(input.reason)}`);
  }
  let author: string;
  if ('cnpj' in input.author)
    author = textElement('CNPJAutor', requirePattern(input.author.cnpj, NUMERIC_CNPJ_PATTERN, 'author.cnpj', '14 digits'));
  else if ('cpf' in input.author)
    author = textElement('CPFAutor', requirePattern(input.author.cpf, CPF_PATTERN, 'author.cpf', '11 digits'));
  else throw new XmlBuildError('author: expected { cnpj } or { cpf }');
  const id = `PRE${key}${CANCELLATION_EVENT_TYPE}`;
  const event =
    textElement('xDesc', 'Cancelamento de NFS-e') +
    textElement('cMotivo', input.reason) +
    textElement('xMotivo', requireText(input.justification, 'justification', 15, 255));
  const info =
    textElement('tpAmb', tpAmb(input.environment)) +
    textElement('verAplic', requireText(input.applicationVersion, 'applicationVersion', 1, 20)) +
    textElement('dhEvento', formatFiscalDateTime(input.eventAt, input.utcOffset)) +
    author +
    textElement('chNFSe', key) +
    element(`e${CANCELLATION_EVENT_TYPE}`, event);
  const xml = element('pedRegEvento', element('infPedReg', info, { Id: id }), { xmlns: NFSE_NAMESPACE, versao: '1.01' });
  return { id, xml };
}
