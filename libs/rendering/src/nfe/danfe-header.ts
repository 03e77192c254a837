// The DANFE's receipt stub (canhoto, first sheet only) and its header, repeated on every sheet: issuer, the DANFE
// box (entry/exit, number, series, sheet n/m), the access key as CODE-128C and in groups of four, the nature of the
// operation with the authorization protocol, and the issuer's registrations.
import {
  escapeHtml,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNfeNumber,
  formatPostalCode,
  formatTaxId,
  groupAccessKey,
  joinPresent,
} from '../format/text.js';
import { accessKeyBarcodeSvg } from '../layout/barcodes.js';
import { cell, row } from '../layout/html-parts.js';
import type { DanfeModel } from './danfe-model.js';

const CONTINGENCY_NAMES: Readonly<Record<string, string>> = { '2': 'FS-IA', '4': 'EPEC', '5': 'FS-DA', '6': 'SVC-AN', '7': 'SVC-RS' };

export function contingencyName(emissionType: string): string | undefined {
  return CONTINGENCY_NAMES[emissionType];
}

export function danfeStub(model: DanfeModel): string {
  const recipient = model.recipient;
  const text =
    `RECEBEMOS DE ${model.issuer.name} OS PRODUTOS E/OU SERVIÇOS CONSTANTES DA NOTA FISCAL ELETRÔNICA INDICADA AO LADO. ` +
    `EMISSÃO: ${formatDate(model.issuedAt)} VALOR TOTAL: R$ ${formatMoney(model.totals.invoice)}` +
    (recipient
      ? ` DESTINATÁRIO: ${recipient.name} - ${joinPresent([recipient.address.street, recipient.address.district, recipient.address.city, recipient.address.state], ' ')}`
      : '');
  return (
    `<table class="grid stub"><tr><td colspan="2" class="stub-text">${escapeHtml(text)}</td>` +
    `<td rowspan="2" class="stub-number"><div class="nfe">NF-e</div><div>Nº ${formatNfeNumber(model.number)}</div><div>SÉRIE ${escapeHtml(model.series)}</div></td></tr>` +
    `<tr>${cell('Data de recebimento', '', { width: 38 })}${cell('Identificação e assinatura do recebedor', '')}</tr></table>` +
    '<div class="cut"></div>'
  );
}

function issuerBox(model: DanfeModel): string {
  const a = model.issuer.address;
  return (
    `<td class="issuer"><div class="l">IDENTIFICAÇÃO DO EMITENTE</div><div class="issuer-name">${escapeHtml(model.issuer.name)}</div>` +
    `<div>${escapeHtml(a.street)}</div><div>${escapeHtml(joinPresent([a.district, formatPostalCode(a.postalCode)], ' - '))}</div>` +
    `<div>${escapeHtml(joinPresent([a.city, a.state], ' - '))}</div>${a.phone ? `<div>Fone: ${escapeHtml(a.phone)}</div>` : ''}</td>`
  );
}

function danfeBox(model: DanfeModel): string {
  const contingency = contingencyName(model.emissionType);
  return (
    '<td class="danfe-box"><div class="danfe-title">DANFE</div><div class="danfe-sub">DOCUMENTO AUXILIAR DA NOTA FISCAL ELETRÔNICA</div>' +
    `<div class="io"><div>0 - ENTRADA<br>1 - SAÍDA</div><div class="io-box">${escapeHtml(model.operationType)}</div></div>` +
    `<div class="danfe-num">Nº ${formatNfeNumber(model.number)}</div><div class="danfe-num">SÉRIE ${escapeHtml(model.series)}</div>` +
    '<div class="danfe-num">FOLHA <span class="sheet-number">1/1</span></div>' +
    (contingency ? `<div class="danfe-cont">CONTINGÊNCIA ${contingency}</div>` : '') +
    '</td>'
  );
}

function keyBox(model: DanfeModel): string {
  return (
    `<td class="key-box"><div class="barcode">${accessKeyBarcodeSvg(model.accessKey)}</div>` +
    `<div class="key-label l">CHAVE DE ACESSO</div><div class="key">${groupAccessKey(model.accessKey)}</div>` +
    '<div class="consult">Consulta de autenticidade no portal nacional da NF-e www.nfe.fazenda.gov.br/portal ou no site da Sefaz Autorizadora</div></td>'
  );
}

/** The header block, identical on every sheet (only the sheet number differs, filled in after pagination). */
export function danfeHeader(model: DanfeModel): string {
  const protocol = joinPresent([model.protocol.number, formatDateTime(model.protocol.receivedAt)], ' - ');
  return (
    `<table class="grid head"><tr>${issuerBox(model)}${danfeBox(model)}${keyBox(model)}</tr></table>` +
    row([
      cell('Natureza da operação', model.natureOfOperation, { width: 114 }),
      cell('Protocolo de autorização de uso', protocol, { align: 'center', className: 'strong' }),
    ]) +
    row([
      cell('Inscrição estadual', model.issuer.stateRegistration, { width: 69 }),
      cell('Inscrição estadual do subst. trib.', model.issuer.stateRegistrationSt, { width: 68 }),
      cell('CNPJ / CPF', formatTaxId(model.issuer.taxId)),
    ])
  );
}
