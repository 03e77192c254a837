// The first sheet's blocks between the header and the items: recipient, invoices/payments, tax totals (with the
// reform's IBS/CBS row when the document carries it), transport; and after the items: ISSQN and additional data.
import {
  escapeHtml,
  formatDate,
  formatDecimal,
  formatMoney,
  formatMoneyOrZero,
  formatPostalCode,
  formatTaxId,
  formatTime,
} from '../format/text.js';
import { blockTitle, cell, row } from '../layout/html-parts.js';
import type { DanfeModel } from './danfe-model.js';

export function recipientBlock(model: DanfeModel): string {
  const r = model.recipient;
  const a = r?.address;
  return (
    blockTitle('Destinatário / Remetente') +
    row([
      cell('Nome / razão social', r?.name ?? ''),
      cell('CNPJ / CPF', formatTaxId(r?.taxId), { width: 40 }),
      cell('Data da emissão', formatDate(model.issuedAt), { width: 28, align: 'center' }),
    ]) +
    row([
      cell('Endereço', a?.street ?? ''),
      cell('Bairro / distrito', a?.district ?? '', { width: 44 }),
      cell('CEP', formatPostalCode(a?.postalCode), { width: 22 }),
      cell('Data da saída / entrada', formatDate(model.exitAt), { width: 28, align: 'center' }),
    ]) +
    row([
      cell('Município', a?.city ?? ''),
      cell('UF', a?.state ?? '', { width: 10, align: 'center' }),
      cell('Fone / fax', a?.phone ?? '', { width: 32 }),
      cell('Inscrição estadual', r?.stateRegistration ?? '', { width: 38 }),
      cell('Hora da saída / entrada', formatTime(model.exitAt), { width: 28, align: 'center' }),
    ])
  );
}

/** Invoices (cobr) and payments (pag): printed only when the document has them. */
export function billingBlock(model: DanfeModel): string {
  const { invoice, installments, payments, change } = model.billing;
  if (!invoice && installments.length === 0 && payments.length === 0) return '';
  const entries: string[] = [];
  if (invoice) {
    entries.push(
      `<div class="bill"><b>FATURA ${escapeHtml(invoice.number)}</b> Valor original R$ ${formatMoney(invoice.original)} · Desconto R$ ${formatMoneyOrZero(invoice.discount)} · Valor líquido R$ ${formatMoney(invoice.net)}</div>`,
    );
  }
  for (const dup of installments) {
    entries.push(
      `<div class="bill dup"><b>${escapeHtml(dup.number)}</b> Venc. ${formatDate(dup.dueDate)} R$ ${formatMoney(dup.value)}</div>`,
    );
  }
  for (const payment of payments) {
    entries.push(`<div class="bill dup"><b>${escapeHtml(payment.method)}</b> R$ ${formatMoney(payment.value)}</div>`);
  }
  if (change && change !== '0.00') entries.push(`<div class="bill dup"><b>Troco</b> R$ ${formatMoney(change)}</div>`);
  return blockTitle('Fatura / duplicatas / pagamento') + `<table class="grid"><tr><td class="bills">${entries.join('')}</td></tr></table>`;
}

export function taxBlock(model: DanfeModel): string {
  const v = model.totals;
  const money = (label: string, value: string, width?: number) => cell(label, formatMoneyOrZero(value), { align: 'right', width });
  let html =
    blockTitle('Cálculo do imposto') +
    row([
      money('Base de cálc. do ICMS', v.icmsBase, 25),
      money('Valor do ICMS', v.icms),
      money('Base de cálc. ICMS S.T.', v.stBase, 26),
      money('Valor do ICMS subst.', v.st, 24),
      money('V. imp. importação', v.importTax),
      money('V. ICMS UF remet.', v.icmsSender),
      money('V. FCP UF dest.', v.fcpDestination),
      money('Valor do PIS', v.pis),
      cell('V. total produtos', formatMoneyOrZero(v.products), { align: 'right', className: 'strong', width: 26 }),
    ]) +
    row([
      money('Valor do frete', v.freight),
      money('Valor do seguro', v.insurance),
      money('Desconto', v.discount),
      money('Outras despesas', v.otherExpenses),
      money('Valor total IPI', v.ipi),
      money('V. ICMS UF dest.', v.icmsDestination),
      money('V. tot. trib.', v.approximateTaxes),
      money('Valor da COFINS', v.cofins),
      cell('V. total da nota', formatMoneyOrZero(v.invoice), { align: 'right', className: 'strong', width: 26 }),
    ]);
  const reform = model.reformTotals;
  if (reform) {
    html += row([
      money('Base de cálc. IBS/CBS', reform.base, 25),
      money('Valor do IBS UF', reform.ibsState),
      money('Valor do IBS mun.', reform.ibsCity),
      money('Valor total do IBS', reform.ibs),
      money('Valor da CBS', reform.cbs),
      money('Crédito presumido', reform.presumedCredit),
      money('Imposto seletivo', reform.selectiveTax),
      cell('V. total NF-e c/ IBS/CBS/IS', formatMoneyOrZero(reform.invoiceWithReform || v.invoice), {
        align: 'right',
        className: 'strong',
        width: 46,
      }),
    ]);
  }
  return html;
}

export function transportBlock(model: DanfeModel): string {
  const t = model.transport;
  const volume = t.volumes[0];
  const sum = (pick: (v: (typeof t.volumes)[number]) => string) =>
    t.volumes.length > 1 ? t.volumes.map(pick).filter(Boolean).join(' + ') : volume ? pick(volume) : '';
  return (
    blockTitle('Transportador / volumes transportados') +
    row([
      cell('Nome / razão social', t.carrierName),
      cell('Frete por conta', t.freightMode, { width: 34 }),
      cell('Código ANTT', t.antt, { width: 20 }),
      cell('Placa do veículo', t.plate, { width: 20 }),
      cell('UF', t.plateState, { width: 9, align: 'center' }),
      cell('CNPJ / CPF', formatTaxId(t.carrierTaxId), { width: 32 }),
    ]) +
    row([
      cell('Endereço', t.carrierAddress),
      cell('Município', t.carrierCity, { width: 50 }),
      cell('UF', t.carrierState, { width: 9, align: 'center' }),
      cell('Inscrição estadual', t.carrierStateRegistration, { width: 32 }),
    ]) +
    row([
      cell(
        'Quantidade',
        sum((v) => v.quantity),
        { align: 'right' },
      ),
      cell(
        'Espécie',
        sum((v) => v.kind),
      ),
      cell(
        'Marca',
        sum((v) => v.brand),
      ),
      cell(
        'Numeração',
        sum((v) => v.numbering),
      ),
      cell(
        'Peso bruto',
        sum((v) => formatDecimal(v.grossWeight, 3)),
        { align: 'right' },
      ),
      cell(
        'Peso líquido',
        sum((v) => formatDecimal(v.netWeight, 3)),
        { align: 'right' },
      ),
    ])
  );
}

export function issqnBlock(model: DanfeModel): string {
  const issqn = model.issqn;
  if (!issqn) return '';
  return (
    blockTitle('Cálculo do ISSQN') +
    row([
      cell('Inscrição municipal', issqn.municipalRegistration),
      cell('Valor total dos serviços', formatMoneyOrZero(issqn.services), { align: 'right' }),
      cell('Base de cálculo do ISSQN', formatMoneyOrZero(issqn.base), { align: 'right' }),
      cell('Valor do ISSQN', formatMoneyOrZero(issqn.value), { align: 'right' }),
    ])
  );
}

/** A cell of the additional data: its label, then HTML that wraps (paragraphs, the fisco's text). */
function wrappedCell(label: string, valueHtml: string, widthMm?: number): string {
  const style = widthMm === undefined ? '' : ` style="width:${widthMm}mm"`;
  return `<td class="c wrap"${style}><div class="l">${escapeHtml(label)}</div><div class="v">${valueHtml}</div></td>`;
}

/** Additional data: the notices the renderer adds (contingency, correction letter) before the taxpayer's own text. */
export function additionalBlock(model: DanfeModel, notices: readonly string[]): string {
  const paragraphs = [...notices, model.additionalInfo.taxpayer].filter((p) => p.trim() !== '');
  return (
    blockTitle('Dados adicionais') +
    '<table class="grid additional"><tr>' +
    wrappedCell('Informações complementares', paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')) +
    wrappedCell('Reservado ao fisco', escapeHtml(model.additionalInfo.fisco), 64) +
    '</tr></table>'
  );
}

/**
 * Where the additional data continues on the next sheet (the manual allows it): empty, filled by the paginator with
 * the paragraphs that did not fit on the first sheet.
 */
export function additionalContinuationBlock(): string {
  return (
    blockTitle('Dados adicionais (continuação)') +
    `<table class="grid additional"><tr>${wrappedCell('Informações complementares (continuação)', '')}</tr></table>`
  );
}
