// The DANFSe in the national model's shape (NT 008, "DANFSe v2.0"): one A4 portrait page, 2 mm margins, a 1 pt page
// border, ½ pt block rules, 5 % grey on the header, the block titles and the two highlighted fields; block titles
// 7 pt bold upper case, field labels 6 pt bold, values 7 pt; the QR code (≥ 15.2 mm) at the header's right with its
// three-line notice in 6 pt. A field without data prints "-"; an absent party prints the manual's fixed sentence.
import { escapeHtml, formatDate, formatDateTime, formatDecimal, formatMoney, formatTaxId } from '../format/text.js';
import { BASE_CSS } from '../layout/base-css.js';
import { qrCodeSvg } from '../layout/barcodes.js';
import { htmlDocument, watermark } from '../layout/html-parts.js';
import type { DocumentStatus } from '../render-options.js';
import type { DanfseModel, DanfsePerson } from './danfse-model.js';

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

const fields = (...items: string[]) => `<div class="fields">${items.join('')}</div>`;
const money = (value: string) => (value ? `R$ ${formatMoney(value)}` : '');
const percent = (value: string) => (value ? `${formatDecimal(value)}%` : '');

/** A party's identification and address, the same fields in every party block; the e-mail's width varies. */
function personFields(person: DanfsePerson, withRegistration: boolean, emailClass: string): string[] {
  return [
    field('CNPJ / CPF / NIF', formatTaxId(person.taxId)),
    withRegistration ? field('Inscrição municipal', person.municipalRegistration) : '',
    field('Telefone', person.phone),
    field('Nome / Nome empresarial', person.name, 's2'),
    field('Município', person.city),
    field('CEP', person.postalCode),
    field('Endereço', person.address, 's2'),
    field('E-mail', person.email, emailClass),
  ];
}

function personBlock(title: string, person: DanfsePerson | undefined, absent: string, withRegistration = true): string {
  if (!person) return `<div class="blk"><div class="fixed">${escapeHtml(absent)}</div></div>`;
  return block(title, fields(...personFields(person, withRegistration, 's2')));
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

function identification(model: DanfseModel, status: DocumentStatus): string {
  return block(
    'Dados de identificação da NFS-e',
    fields(
      field('Chave de acesso da NFS-e', model.accessKey, 's4 key'),
      field('Número da NFS-e', model.number),
      field('Competência da NFS-e', formatDate(model.competence)),
      field('Data e hora da emissão da NFS-e', formatDateTime(model.processedAt)),
      field('Número da DPS', model.dpsNumber),
      field('Série da DPS', model.dpsSeries),
      field('Data e hora da emissão da DPS', formatDateTime(model.dpsIssuedAt)),
      field('Emitente da NFS-e', model.issuedBy, 'shade'),
      field('Situação da NFS-e', STATUS_NAMES[status]),
      field('Finalidade', model.purpose),
    ),
  );
}

function providerBlock(model: DanfseModel): string {
  const p = model.provider;
  return block(
    'Prestador / fornecedor',
    fields(
      ...personFields(p, true, ''),
      field('Simples Nacional na data de competência', p.simplesNacional, 's2'),
      field('Regime de apuração tributária pelo SN', p.simplesRegime, 's2'),
    ),
  );
}

function serviceBlock(model: DanfseModel): string {
  const s = model.service;
  return block(
    'Serviço prestado',
    fields(
      field('Código de tributação nacional', s.nationalCode),
      field('Código de tributação municipal', s.municipalCode),
      field('Código da NBS', s.nbs),
      field('Local da prestação', s.place),
      field('Descrição do código de tributação', s.codeDescription, 's4'),
      field('Descrição do serviço', s.description, 's4 desc'),
    ),
  );
}

function municipalBlock(model: DanfseModel): string {
  const m = model.municipalTax;
  return block(
    'Tributação municipal (ISSQN)',
    fields(
      field('Tributação do ISSQN', m.taxation),
      field('Município de incidência do ISSQN', m.incidencePlace),
      field('Regime especial de tributação', m.specialRegime),
      field('Tipo de imunidade', m.immunity),
      field('Suspensão da exigibilidade', m.suspension),
      field('Benefício municipal', m.benefit),
      field('Total deduções / reduções', money(m.deductions)),
      field('Desconto incondicionado', money(m.unconditionalDiscount)),
      field('BC ISSQN', money(m.base)),
      field('Alíquota aplicada', percent(m.rate)),
      field('Retenção do ISSQN', m.retention),
      field('ISSQN apurado', money(m.issqn)),
    ),
  );
}

function federalBlock(model: DanfseModel): string {
  const f = model.federalTax;
  return block(
    'Tributação federal (exceto CBS)',
    fields(
      field('IRRF', money(f.irrf)),
      field('Contribuição previdenciária - retida', money(f.socialSecurity)),
      field('Contribuições sociais - retidas (CSLL)', money(f.csll)),
      field('PIS - débito apuração própria', money(f.pis)),
      field('COFINS - débito apuração própria', money(f.cofins)),
      field('Descrição das contribuições sociais retidas', f.pisCofinsRetention, 's2'),
    ),
  );
}

function reformBlock(model: DanfseModel): string {
  const r = model.reform;
  if (!r) return '';
  return block(
    'Tributação IBS / CBS',
    fields(
      field('CST / cClassTrib', [r.cst, r.classification].filter(Boolean).join(' / ')),
      field('Indicador de operação', r.operationIndicator),
      field('Localidade de incidência', r.place, 's2'),
      field('BC após exclusões e reduções', money(r.base)),
      field('Alíquota IBS estadual / efetiva', [percent(r.stateRate), percent(r.stateEffectiveRate)].filter(Boolean).join(' / ')),
      field('Alíquota IBS municipal / efetiva', [percent(r.cityRate), percent(r.cityEffectiveRate)].filter(Boolean).join(' / ')),
      field('Alíquota CBS / efetiva', [percent(r.cbsRate), percent(r.cbsEffectiveRate)].filter(Boolean).join(' / ')),
      field('Valor apurado IBS estadual', money(r.ibsState)),
      field('Valor apurado IBS municipal', money(r.ibsCity)),
      field('Valor total apurado IBS', money(r.ibsTotal)),
      field('Valor total apurado CBS', money(r.cbs)),
    ),
  );
}

function totalsBlock(model: DanfseModel): string {
  const v = model.totals;
  const r = model.reform;
  return block(
    'Valor total da NFS-e',
    fields(
      field('Valor do serviço', money(v.service)),
      field('Desconto incondicionado', money(v.unconditionalDiscount)),
      field('Desconto condicionado', money(v.conditionalDiscount)),
      field('Total das retenções (ISSQN / federais)', money(v.retentions || '0.00')),
      field('Valor líquido da NFS-e', money(v.net)),
      r ? field('Total do IBS / CBS', [money(r.ibsTotal), money(r.cbs)].filter(Boolean).join(' / ')) : '',
      r ? field('Valor líquido da NFS-e + IBS/CBS', money(r.totalWithReform), 'shade') : '',
    ),
  );
}

export function danfseHtml(model: DanfseModel, status: DocumentStatus = 'authorized'): string {
  const taker = personBlock('Tomador / adquirente', model.taker, 'TOMADOR/ADQUIRENTE DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e');
  const recipient = model.recipient
    ? personBlock('Destinatário da operação', model.recipient, '', false)
    : `<div class="blk"><div class="fixed">${model.taker ? 'O DESTINATÁRIO É O PRÓPRIO TOMADOR/ADQUIRENTE DA OPERAÇÃO' : 'DESTINATÁRIO DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e'}</div></div>`;
  const intermediary = personBlock('Intermediário da operação', model.intermediary, 'INTERMEDIÁRIO DA OPERAÇÃO NÃO IDENTIFICADO NA NFS-e');
  const complementary = block(
    'Informações complementares',
    `<div class="fields"><div class="fd s4">${model.complementary.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</div></div>`,
    'compl',
  );
  const marks = status === 'cancelled' ? watermark('CANCELADA') : status === 'replaced' ? watermark('SUBSTITUÍDA') : '';
  const body =
    `<div class="sheet danfse"><div class="frame">${header(model)}${identification(model, status)}${providerBlock(model)}${taker}${recipient}${intermediary}` +
    `${serviceBlock(model)}${municipalBlock(model)}${federalBlock(model)}${reformBlock(model)}${totalsBlock(model)}${complementary}</div>${marks}</div>`;
  return htmlDocument(`DANFSe ${model.accessKey}`, BASE_CSS + DANFSE_CSS, body);
}
