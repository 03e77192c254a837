// The NF-e events the platform sends: cancellation (110111), correction letter CC-e (110110) and recipient
// manifestation (210200/210210/210220/210240). Texts are the layout's fixed enumerations.
import { textElement, XmlBuildError } from '../../writer/canonical-xml.js';
import { requirePattern, requireText } from '../../writer/field-rules.js';
import { buildNfeEvent, type NfeEventCommon, type UnsignedNfeEvent } from './event-message.js';

/** cOrgao of the national environment (Ambiente Nacional), where manifestation events are registered. */
export const NATIONAL_ENVIRONMENT_ORGAO = '91';

// The legal conditions of use of the CC-e (Convênio S/N de 1970, art. 7º §1º-A), in the unaccented form the
// layout enumerates (e110110_v1.00.xsd accepts this text or the accented one, byte for byte).
export const CORRECTION_LETTER_CONDITIONS_OF_USE =
  'A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N, de 15 de dezembro de 1970 e pode ser utilizada para regularizacao de erro ocorrido na emissao de documento fiscal, desde que o erro nao esteja relacionado com: I - as variaveis que determinam o valor do imposto tais como: base de calculo, aliquota, diferenca de preco, quantidade, valor da operacao ou da prestacao; II - a correcao de dados cadastrais que implique mudanca do remetente ou do destinatario; III - a data de emissao ou de saida.';

function ufOrgao(accessKey: string): string {
  // cOrgao of issuer events is the authorizing state's cUF, the first two characters of the key.
  return accessKey.slice(0, 2);
}

export interface CancellationEventInput extends NfeEventCommon {
  /** The authorization protocol (nProt, 15 digits). */
  readonly protocol: string;
  /** 15–255 characters. */
  readonly justification: string;
}

export function buildCancellationEvent(input: CancellationEventInput): UnsignedNfeEvent {
  const details =
    textElement('descEvento', 'Cancelamento') +
    textElement('nProt', requirePattern(input.protocol, /^[0-9]{15}$/, 'protocol', '15 digits')) +
    textElement('xJust', requireText(input.justification, 'justification', 15, 255));
  return buildNfeEvent(input, { orgao: ufOrgao(input.accessKey), type: '110111', sequence: 1, maxSequence: 1, details });
}

export interface CorrectionLetterInput extends NfeEventCommon {
  /** 1–20: each new CC-e replaces the previous one and carries the next sequence number. */
  readonly sequence: number;
  /** 15–1000 characters. */
  readonly correction: string;
}

export function buildCorrectionLetterEvent(input: CorrectionLetterInput): UnsignedNfeEvent {
  const details =
    textElement('descEvento', 'Carta de Correcao') +
    textElement('xCorrecao', requireText(input.correction, 'correction', 15, 1000)) +
    textElement('xCondUso', CORRECTION_LETTER_CONDITIONS_OF_USE);
  return buildNfeEvent(input, { orgao: ufOrgao(input.accessKey), type: '110110', sequence: input.sequence, maxSequence: 20, details });
}

export type ManifestationType = '210200' | '210210' | '210220' | '210240';

const MANIFESTATION_DESCRIPTION: Readonly<Record<ManifestationType, string>> = {
  '210200': 'Confirmacao da Operacao',
  '210210': 'Ciencia da Operacao',
  '210220': 'Desconhecimento da Operacao',
  '210240': 'Operacao nao Realizada',
};

export interface ManifestationInput extends NfeEventCommon {
  readonly type: ManifestationType;
  /** Required (15–255) for 210240 "Operação não Realizada", refused for the others. */
  readonly justification?: string;
  /** nSeqEvento: 1, or 2 for the one correction filed with the same code (default 1). */
  readonly sequence?: number;
}

export function buildManifestationEvent(input: ManifestationInput): UnsignedNfeEvent {
  const description = MANIFESTATION_DESCRIPTION[input.type];
  if (!description) throw new XmlBuildError(`type: expected 210200, 210210, 210220 or 210240, received ${JSON.stringify(input.type)}`);
  let details = textElement('descEvento', description);
  if (input.type === '210240') {
    if (input.justification === undefined) throw new XmlBuildError('justification: required for 210240 (Operacao nao Realizada)');
    details += textElement('xJust', requireText(input.justification, 'justification', 15, 255));
  } else if (input.justification !== undefined) {
    throw new XmlBuildError(`justification: only 210240 carries a justification, not ${input.type}`);
  }
  const sequence = input.sequence ?? 1;
  return buildNfeEvent(input, { orgao: NATIONAL_ENVIRONMENT_ORGAO, type: input.type, sequence, maxSequence: 2, details });
}
