// The items table ("DADOS DOS PRODUTOS / SERVIÇOS"). Every row is emitted on the first sheet; the in-page paginator
// moves the rows that do not fit to continuation sheets, whose tables share this header and column widths.
import { escapeHtml, formatDecimal, formatMoney } from '../format/text.js';
import type { DanfeItem } from './danfe-model.js';

interface Column {
  readonly label: string;
  readonly width?: number;
  readonly value: (item: DanfeItem) => string;
  readonly align?: 'r' | 'm';
}

/** Widths in mm (the description takes the rest of the 206 mm). */
function columns(simplesNacional: boolean): readonly Column[] {
  return [
    { label: 'CÓDIGO PRODUTO', width: 15, value: (i) => escapeHtml(i.code) },
    {
      label: 'DESCRIÇÃO DO PRODUTO / SERVIÇO',
      value: (i) => escapeHtml(i.description) + (i.additionalInfo ? `<div class="item-info">${escapeHtml(i.additionalInfo)}</div>` : ''),
    },
    { label: 'NCM/SH', width: 11, value: (i) => escapeHtml(i.ncm), align: 'm' },
    { label: simplesNacional ? 'O/CSOSN' : 'O/CST', width: 9, value: (i) => escapeHtml(i.cst), align: 'm' },
    { label: 'CFOP', width: 7, value: (i) => escapeHtml(i.cfop), align: 'm' },
    { label: 'UN', width: 7, value: (i) => escapeHtml(i.unit), align: 'm' },
    { label: 'QUANT.', width: 13, value: (i) => formatDecimal(i.quantity, 4), align: 'r' },
    { label: 'VALOR UNIT.', width: 14, value: (i) => formatDecimal(i.unitPrice, 2), align: 'r' },
    { label: 'VALOR TOTAL', width: 15, value: (i) => formatMoney(i.total), align: 'r' },
    { label: 'VALOR DESC.', width: 11, value: (i) => formatMoney(i.discount), align: 'r' },
    { label: 'B. CÁLC. ICMS', width: 14, value: (i) => formatMoney(i.icmsBase), align: 'r' },
    { label: 'VALOR ICMS', width: 12, value: (i) => formatMoney(i.icmsValue), align: 'r' },
    { label: 'VALOR IPI', width: 11, value: (i) => formatMoney(i.ipiValue), align: 'r' },
    { label: 'ALÍQ. ICMS', width: 8, value: (i) => formatDecimal(i.icmsRate, 2), align: 'r' },
    { label: 'ALÍQ. IPI', width: 8, value: (i) => formatDecimal(i.ipiRate, 2), align: 'r' },
  ];
}

function tableStart(cols: readonly Column[]): string {
  const colgroup = cols.map((c) => (c.width ? `<col style="width:${c.width}mm">` : '<col>')).join('');
  const head = cols.map((c) => `<th>${c.label}</th>`).join('');
  return `<table class="items"><colgroup>${colgroup}</colgroup><thead><tr>${head}</tr></thead><tbody>`;
}

/** The items area with every row (first sheet). */
export function itemsArea(items: readonly DanfeItem[], simplesNacional: boolean): string {
  const cols = columns(simplesNacional);
  const rows = items
    .map((item) => `<tr>${cols.map((c) => `<td${c.align ? ` class="${c.align}"` : ''}>${c.value(item)}</td>`).join('')}</tr>`)
    .join('');
  return `<div class="bt">Dados dos produtos / serviços</div><div class="items-area">${tableStart(cols)}${rows}</tbody></table></div>`;
}

/** The same area with no rows: the continuation sheets' template. */
export function emptyItemsArea(simplesNacional: boolean): string {
  return `<div class="bt">Dados dos produtos / serviços (continuação)</div><div class="items-area">${tableStart(columns(simplesNacional))}</tbody></table></div>`;
}
