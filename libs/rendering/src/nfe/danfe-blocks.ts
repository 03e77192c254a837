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
import { type FieldSpec, fieldValue, readFields } from '../layout/field-table.js';
import { blockTitle, cell, type CellOptions, row } from '../layout/html-parts.js';
import type { DanfeAddress, DanfeModel, DanfeParty, DanfeReformTotals, DanfeTotals, DanfeTransport } from './danfe-model.js';

/** A cell of the DANFE: its layout is the cell's options (width, alignment, classes). */
type Cell<T> = FieldSpec<T, CellOptions>;

/** One ruled row of the cells of `table` read from `source`; `format` applies to every value, `defaults` to every cell. */
function cellRow<T>(source: T, table: readonly Cell<T>[], format = (value: string) => value, defaults: CellOptions = {}): string {
  return row(readFields(source, table).map(([label, value, options]) => cell(label, format(value), { ...defaults, ...options })));
}

/** A block: its title over rows of cells, each row read from `source` by its table. */
function cellBlock<T>(title: string, source: T, rows: readonly (readonly Cell<T>[])[]): string {
  return blockTitle(title) + rows.map((table) => cellRow(source, table)).join('');
}

const RIGHT: CellOptions = { align: 'right' };
const DATE: CellOptions = { width: 28, align: 'center' };

/** The recipient's party and address in one record, with the document's dates. */
type RecipientSource = DanfeParty & DanfeAddress & Pick<DanfeModel, 'issuedAt' | 'exitAt'>;
const NO_ADDRESS: DanfeAddress = { street: '', district: '', city: '', state: '', postalCode: '', phone: '' };
const NO_RECIPIENT: DanfeParty = { name: '', taxId: '', stateRegistration: '', address: NO_ADDRESS };

const RECIPIENT: readonly (readonly Cell<RecipientSource>[])[] = [
  [
    ['Nome / razão social', 'name'],
    ['CNPJ / CPF', (r) => formatTaxId(r.taxId), { width: 40 }],
    ['Data da emissão', (r) => formatDate(r.issuedAt), DATE],
  ],
  [
    ['Endereço', 'street'],
    ['Bairro / distrito', 'district', { width: 44 }],
    ['CEP', (r) => formatPostalCode(r.postalCode), { width: 22 }],
    ['Data da saída / entrada', (r) => formatDate(r.exitAt), DATE],
  ],
  [
    ['Município', 'city'],
    ['UF', 'state', { width: 10, align: 'center' }],
    ['Fone / fax', 'phone', { width: 32 }],
    ['Inscrição estadual', 'stateRegistration', { width: 38 }],
    ['Hora da saída / entrada', (r) => formatTime(r.exitAt), DATE],
  ],
];

export function recipientBlock(model: DanfeModel): string {
  const recipient = model.recipient ?? NO_RECIPIENT;
  const source = { ...recipient.address, ...recipient, issuedAt: model.issuedAt, exitAt: model.exitAt };
  return cellBlock('Destinatário / Remetente', source, RECIPIENT);
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

/** A row of money cells: right-aligned, 0,00 when absent; the last, the row's total, in bold. */
function moneyRow<T>(source: T, table: readonly Cell<T>[]): string {
  return cellRow(source, table, formatMoneyOrZero, RIGHT);
}

const TOTAL: CellOptions = { className: 'strong', width: 26 };

const TAX_TOTALS: readonly (readonly Cell<DanfeTotals>[])[] = [
  [
    ['Base de cálc. do ICMS', 'icmsBase', { width: 25 }],
    ['Valor do ICMS', 'icms'],
    ['Base de cálc. ICMS S.T.', 'stBase', { width: 26 }],
    ['Valor do ICMS subst.', 'st', { width: 24 }],
    ['V. imp. importação', 'importTax'],
    ['V. ICMS UF remet.', 'icmsSender'],
    ['V. FCP UF dest.', 'fcpDestination'],
    ['Valor do PIS', 'pis'],
    ['V. total produtos', 'products', TOTAL],
  ],
  [
    ['Valor do frete', 'freight'],
    ['Valor do seguro', 'insurance'],
    ['Desconto', 'discount'],
    ['Outras despesas', 'otherExpenses'],
    ['Valor total IPI', 'ipi'],
    ['V. ICMS UF dest.', 'icmsDestination'],
    ['V. tot. trib.', 'approximateTaxes'],
    ['Valor da COFINS', 'cofins'],
    ['V. total da nota', 'invoice', TOTAL],
  ],
];

const REFORM_TOTALS: readonly Cell<DanfeReformTotals>[] = [
  ['Base de cálc. IBS/CBS', 'base', { width: 25 }],
  ['Valor do IBS UF', 'ibsState'],
  ['Valor do IBS mun.', 'ibsCity'],
  ['Valor total do IBS', 'ibs'],
  ['Valor da CBS', 'cbs'],
  ['Crédito presumido', 'presumedCredit'],
  ['Imposto seletivo', 'selectiveTax'],
  ['V. total NF-e c/ IBS/CBS/IS', 'invoiceWithReform', { ...TOTAL, width: 46 }],
];

/** The tax totals, and the reform's row when the document carries it (its total is the invoice's when it has none). */
export function taxBlock(model: DanfeModel): string {
  const reform = model.reformTotals;
  const rows = TAX_TOTALS.map((table) => moneyRow(model.totals, table));
  if (reform) rows.push(moneyRow({ ...reform, invoiceWithReform: reform.invoiceWithReform || model.totals.invoice }, REFORM_TOTALS));
  return blockTitle('Cálculo do imposto') + rows.join('');
}

type DanfeVolume = DanfeTransport['volumes'][number];

const CARRIER: readonly (readonly Cell<DanfeTransport>[])[] = [
  [
    ['Nome / razão social', 'carrierName'],
    ['Frete por conta', 'freightMode', { width: 34 }],
    ['Código ANTT', 'antt', { width: 20 }],
    ['Placa do veículo', 'plate', { width: 20 }],
    ['UF', 'plateState', { width: 9, align: 'center' }],
    ['CNPJ / CPF', (t) => formatTaxId(t.carrierTaxId), { width: 32 }],
  ],
  [
    ['Endereço', 'carrierAddress'],
    ['Município', 'carrierCity', { width: 50 }],
    ['UF', 'carrierState', { width: 9, align: 'center' }],
    ['Inscrição estadual', 'carrierStateRegistration', { width: 32 }],
  ],
];

const VOLUMES: readonly Cell<DanfeVolume>[] = [
  ['Quantidade', 'quantity', RIGHT],
  ['Espécie', 'kind'],
  ['Marca', 'brand'],
  ['Numeração', 'numbering'],
  ['Peso bruto', (v) => formatDecimal(v.grossWeight, 3), RIGHT],
  ['Peso líquido', (v) => formatDecimal(v.netWeight, 3), RIGHT],
];

/** The carrier, then the volumes in one row: each cell the volumes' values joined with " + " (the empty ones left out). */
export function transportBlock(model: DanfeModel): string {
  const t = model.transport;
  const sum = (spec: Cell<DanfeVolume>) =>
    t.volumes
      .map((volume) => fieldValue(volume, spec))
      .filter(Boolean)
      .join(' + ');
  const volumes = VOLUMES.map((spec) => cell(spec[0], sum(spec), spec[2]));
  return cellBlock('Transportador / volumes transportados', t, CARRIER) + row(volumes);
}

const ISSQN: readonly Cell<NonNullable<DanfeModel['issqn']>>[] = [
  ['Inscrição municipal', 'municipalRegistration'],
  ['Valor total dos serviços', (i) => formatMoneyOrZero(i.services), RIGHT],
  ['Base de cálculo do ISSQN', (i) => formatMoneyOrZero(i.base), RIGHT],
  ['Valor do ISSQN', (i) => formatMoneyOrZero(i.value), RIGHT],
];

export function issqnBlock(model: DanfeModel): string {
  return model.issqn ? cellBlock('Cálculo do ISSQN', model.issqn, [ISSQN]) : '';
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
