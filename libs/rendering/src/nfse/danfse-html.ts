// The DANFSe in the national model's shape (NT 008, "DANFSe v2.0"): one A4 portrait page, 2 mm margins, a 1 pt page
// border, ½ pt block rules, 5 % grey on the header, the block titles and the two highlighted fields; block titles
// 7 pt bold upper case, field labels 6 pt bold, values 7 pt; the QR code (≥ 15.2 mm) at the header's right with its
// three-line notice in 6 pt. A field without data prints "-"; an absent party prints the manual's fixed sentence.
import { escapeHtml, formatDate, formatDateTime, formatDecimal, formatMoney, formatTaxId } from '../format/text.js';
import { BASE_CSS } from '../layout/base-css.js';
import { qrCodeSvg } from '../layout/barcodes.js';
import { type FieldSpec, readFields } from '../layout/field-table.js';
import { htmlDocument, watermark } from '../layout/html-parts.js';
import type { DocumentStatus } from '../render-options.js';
import type { DanfseModel, DanfsePerson, DanfseReform } from './danfse-model.js';

/** The national public consultation, as NT 008 prints it in the QR code: the access key follows the "=". */
export const NFSE_CONSULTATION_URL = 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=';

export function nfseConsultationUrl(accessKey: string): string {
  return NFSE_CONSULTATION_URL + accessKey;
}

const DANFSE_CSS = `
.sheet.danfse { padding: 2mm; }
.frame { border: 1pt solid #000; height: 100%; display: flex; flex-direction: column; }
.hd { display: flex; align-items: stretch; background: #f2f2f2; border-bottom: 0.5pt solid #000; height: 27mm; }
.hd .mark { width: 30mm; display: flex; align-items: center; justify-content: center; font-size: 15pt; font-weight: bold; }
.hd .mark span { border: 1.2pt solid #000; padding: 1mm 2mm; border-radius: 1.5mm; }
.hd .title { flex: 1; text-align: center; padding-top: 6mm; font-size: 9pt; font-weight: bold; line-height: 1.35; }
.hd .title .test { color: #ff0000; }
.hd .place { width: 40mm; padding: 3mm 1mm 0; font-size: 6pt; line-height: 1.4; }
.hd .place .city { font-size: 8pt; }
.hd .qr { width: 58mm; display: flex; flex-direction: column; align-items: center; padding: 1mm 1mm 0; }
.hd .qr .qrcode { width: 17mm; height: 17mm; }
.hd .qr .qr-text { font-size: 6pt; line-height: 1.15; text-align: center; margin-top: 0.5mm; }
.blk { border-bottom: 0.5pt solid #000; }
.blk:last-child { border-bottom: none; }
.blk-title { background: #f2f2f2; font-size: 7pt; font-weight: bold; text-transform: uppercase; padding: 0.5mm 1.5mm; border-bottom: 0.5pt solid #000; }
.fields { display: grid; grid-template-columns: repeat(4, 1fr); column-gap: 2mm; padding: 0.6mm 1.5mm 0.8mm; }
.fd { min-width: 0; margin-bottom: 0.6mm; }
.fd.s2 { grid-column: span 2; }
.fd.s4 { grid-column: span 4; }
.fd.shade { background: #f2f2f2; }
.fl { font-size: 6pt; font-weight: bold; }
.fv { font-size: 7pt; overflow-wrap: anywhere; }
.fd.key .fv { font-size: 8pt; font-weight: bold; letter-spacing: 0.2mm; }
.fixed { font-size: 7pt; font-weight: bold; padding: 0.8mm 1.5mm; }
.desc .fv { max-height: 30mm; overflow: hidden; }
.compl { flex: 1; min-height: 0; overflow: hidden; }
.compl p { margin: 0 0 0.6mm; font-size: 7pt; overflow-wrap: anywhere; }
`;

function field(label: string, value: string, className = ''): string {
  return `<div class="fd ${className}"><div class="fl">${escapeHtml(label)}</div><div class="fv">${escapeHtml(value.trim() === '' ? '-' : value)}</div></div>`;
}

function block(title: string, content: string, className = ''): string {
  return `<div class="blk ${className}"><div class="blk-title">${escapeHtml(title)}</div>${content}</div>`;
}

/** A field of the DANFSe: its layout is its grid classes (`s2`, `s4`: the columns it spans; `shade`, `key`, `desc`). */
type Field<T> = FieldSpec<T, string>;

/** A block of fields read from `source` by `table`; no block when there is no source. */
function fieldBlock<T>(title: string, source: T | undefined, table: readonly Field<T>[]): string {
  if (source === undefined) return '';
  const fields = readFields(source, table).map(([label, value, className]) => field(label, value, className));
  return block(title, `<div class="fields">${fields.join('')}</div>`);
}

const money = (value: string) => (value ? `R$ ${formatMoney(value)}` : '');
const percent = (value: string) => (value ? `${formatDecimal(value)}%` : '');
/** Two or more values printed in one field, the absent ones left out. */
const joined = (...values: string[]) => values.filter(Boolean).join(' / ');

/**
 * A party's identification and address, the same fields in every party block; the e-mail follows, two columns wide
 * but in the provider's block (whose Simples Nacional fields follow it), and the recipient has no municipal registration.
 */
const REGISTRATION: Field<DanfsePerson> = ['Inscrição municipal', 'municipalRegistration'];
const PARTY: readonly Field<DanfsePerson>[] = [
  ['CNPJ / CPF / NIF', (p) => formatTaxId(p.taxId)],
  REGISTRATION,
  ['Telefone', 'phone'],
  ['Nome / Nome empresarial', 'name', 's2'],
  ['Município', 'city'],
  ['CEP', 'postalCode'],
  ['Endereço', 'address', 's2'],
];
const PARTY_BLOCK: readonly Field<DanfsePerson>[] = [...PARTY, ['E-mail', 'email', 's2']];
const RECIPIENT_BLOCK = PARTY_BLOCK.filter((spec) => spec !== REGISTRATION);

const PROVIDER: readonly Field<DanfseModel['provider']>[] = [
  ...PARTY,
  ['E-mail', 'email'],
  ['Simples Nacional na data de competência', 'simplesNacional', 's2'],
  ['Regime de apuração tributária pelo SN', 'simplesRegime', 's2'],
];

function personBlock(title: string, person: DanfsePerson | undefined, absent: string, table = PARTY_BLOCK): string {
  if (!person) return `<div class="blk"><div class="fixed">${escapeHtml(absent)}</div></div>`;
  return fieldBlock(title, person, table);
}

function header(model: DanfseModel): string {
  const test = model.environment === '2' ? '<div class="test">NFS-e SEM VALIDADE JURÍDICA</div>' : '';
  return (
    '<div class="hd"><div class="mark"><span>NFS-e</span></div>' +
    `<div class="title"><div>DANFSe v2.0</div><div>Documento Auxiliar da NFS-e</div>${test}</div>` +
    `<div class="place"><div class="city">${escapeHtml(model.issuePlace)}</div><div>Ambiente gerador: ${escapeHtml(model.generatorEnvironment)}</div>` +
    `<div>Tipo de ambiente: ${model.environment === '1' ? 'Produção' : 'Homologação (produção restrita)'}</div></div>` +
    `<div class="qr"><div class="qrcode">${qrCodeSvg(nfseConsultationUrl(model.accessKey))}</div>` +
    '<div class="qr-text">A autenticidade desta NFS-e pode ser verificada<br>pela leitura deste código QR ou pela consulta da<br>chave de acesso no portal nacional da NFS-e</div></div></div>'
  );
}

const STATUS_NAMES: Readonly<Record<DocumentStatus, string>> = {
  authorized: 'NFS-e autorizada',
  cancelled: 'NFS-e cancelada',
  replaced: 'NFS-e substituída',
};

const IDENTIFICATION: readonly Field<DanfseModel & { readonly status: string }>[] = [
  ['Chave de acesso da NFS-e', 'accessKey', 's4 key'],
  ['Número da NFS-e', 'number'],
  ['Competência da NFS-e', (m) => formatDate(m.competence)],
  ['Data e hora da emissão da NFS-e', (m) => formatDateTime(m.processedAt)],
  ['Número da DPS', 'dpsNumber'],
  ['Série da DPS', 'dpsSeries'],
  ['Data e hora da emissão da DPS', (m) => formatDateTime(m.dpsIssuedAt)],
  ['Emitente da NFS-e', 'issuedBy', 'shade'],
  ['Situação da NFS-e', 'status'],
  ['Finalidade', 'purpose'],
];

const SERVICE: readonly Field<DanfseModel['service']>[] = [
  ['Código de tributação nacional', 'nationalCode'],
  ['Código de tributação municipal', 'municipalCode'],
  ['Código da NBS', 'nbs'],
  ['Local da prestação', 'place'],
  ['Descrição do código de tributação', 'codeDescription', 's4'],
  ['Descrição do serviço', 'description', 's4 desc'],
];

const MUNICIPAL_TAX: readonly Field<DanfseModel['municipalTax']>[] = [
  ['Tributação do ISSQN', 'taxation'],
  ['Município de incidência do ISSQN', 'incidencePlace'],
  ['Regime especial de tributação', 'specialRegime'],
  ['Tipo de imunidade', 'immunity'],
  ['Suspensão da exigibilidade', 'suspension'],
  ['Benefício municipal', 'benefit'],
  ['Total deduções / reduções', (m) => money(m.deductions)],
  ['Desconto incondicionado', (m) => money(m.unconditionalDiscount)],
  ['BC ISSQN', (m) => money(m.base)],
  ['Alíquota aplicada', (m) => percent(m.rate)],
  ['Retenção do ISSQN', 'retention'],
  ['ISSQN apurado', (m) => money(m.issqn)],
];

const FEDERAL_TAX: readonly Field<DanfseModel['federalTax']>[] = [
  ['IRRF', (f) => money(f.irrf)],
  ['Contribuição previdenciária - retida', (f) => money(f.socialSecurity)],
  ['Contribuições sociais - retidas (CSLL)', (f) => money(f.csll)],
  ['PIS - débito apuração própria', (f) => money(f.pis)],
  ['COFINS - débito apuração própria', (f) => money(f.cofins)],
  ['Descrição das contribuições sociais retidas', 'pisCofinsRetention', 's2'],
];

const REFORM: readonly Field<DanfseReform>[] = [
  ['CST / cClassTrib', (r) => joined(r.cst, r.classification)],
  ['Indicador de operação', 'operationIndicator'],
  ['Localidade de incidência', 'place', 's2'],
  ['BC após exclusões e reduções', (r) => money(r.base)],
  ['Alíquota IBS estadual / efetiva', (r) => joined(percent(r.stateRate), percent(r.stateEffectiveRate))],
  ['Alíquota IBS municipal / efetiva', (r) => joined(percent(r.cityRate), percent(r.cityEffectiveRate))],
  ['Alíquota CBS / efetiva', (r) => joined(percent(r.cbsRate), percent(r.cbsEffectiveRate))],
  ['Valor apurado IBS estadual', (r) => money(r.ibsState)],
  ['Valor apurado IBS municipal', (r) => money(r.ibsCity)],
  ['Valor total apurado IBS', (r) => money(r.ibsTotal)],
  ['Valor total apurado CBS', (r) => money(r.cbs)],
];

/** The totals, with the reform's two fields when the document carries it. */
const TOTALS: readonly Field<DanfseModel['totals'] & { readonly reform?: DanfseReform }>[] = [
  ['Valor do serviço', (v) => money(v.service)],
  ['Desconto incondicionado', (v) => money(v.unconditionalDiscount)],
  ['Desconto condicionado', (v) => money(v.conditionalDiscount)],
  ['Total das retenções (ISSQN / federais)', (v) => money(v.retentions || '0.00')],
  ['Valor líquido da NFS-e', (v) => money(v.net)],
  ['Total do IBS / CBS', ({ reform }) => reform && joined(money(reform.ibsTotal), money(reform.cbs))],
  ['Valor líquido da NFS-e + IBS/CBS', ({ reform }) => reform && money(reform.totalWithReform), 'shade'],
];

export function danfseHtml(model: DanfseModel, status: DocumentStatus = 'authorized'): string {
  const recipientAbsent = model.taker
    ? 'O DESTINATÁRIO É O PRÓPRIO TOMADOR/ADQUIRENTE DA OPERAÇÃO'
    : 'DESTINATÁRIO DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e';
  const blocks = [
    header(model),
    fieldBlock('Dados de identificação da NFS-e', { ...model, status: STATUS_NAMES[status] }, IDENTIFICATION),
    fieldBlock('Prestador / fornecedor', model.provider, PROVIDER),
    personBlock('Tomador / adquirente', model.taker, 'TOMADOR/ADQUIRENTE DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e'),
    personBlock('Destinatário da operação', model.recipient, recipientAbsent, RECIPIENT_BLOCK),
    personBlock('Intermediário da operação', model.intermediary, 'INTERMEDIÁRIO DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e'),
    fieldBlock('Serviço prestado', model.service, SERVICE),
    fieldBlock('Tributação municipal (ISSQN)', model.municipalTax, MUNICIPAL_TAX),
    fieldBlock('Tributação federal (exceto CBS)', model.federalTax, FEDERAL_TAX),
    fieldBlock('Tributação IBS / CBS', model.reform, REFORM),
    fieldBlock('Valor total da NFS-e', { ...model.totals, reform: model.reform }, TOTALS),
    block(
      'Informações complementares',
      `<div class="fields"><div class="fd s4">${model.complementary.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</div></div>`,
      'compl',
    ),
  ];
  const marks = status === 'cancelled' ? watermark('CANCELADA') : status === 'replaced' ? watermark('SUBSTITUÍDA') : '';
  const body = `<div class="sheet danfse"><div class="frame">${blocks.join('')}</div>${marks}</div>`;
  return htmlDocument(`DANFSe ${model.accessKey}`, BASE_CSS + DANFSE_CSS, body);
}
