// The DANFE as one HTML document: the first sheet (stub, header, recipient, billing, taxes, transport, items,
// ISSQN, additional data), a <template> of the continuation sheet (header and items only), which the in-page
// paginator clones as often as the items need, and one of the additional data's continuation, for the text that
// does not fit on the first sheet. Dimensions: A4 portrait, 2 mm margins, stub ≈ 24 mm with its cut
// line, header 47 mm (32 mm issuer/DANFE/key boxes with a 75 × 12 mm barcode, then two field rows).
import { formatDateTime } from '../format/text.js';
import { BASE_CSS } from '../layout/base-css.js';
import { htmlDocument, watermark } from '../layout/html-parts.js';
import { PAGINATE_SCRIPT } from '../layout/paginate-script.js';
import type { RenderOptions } from '../render-options.js';
import {
  additionalBlock,
  additionalContinuationBlock,
  billingBlock,
  issqnBlock,
  recipientBlock,
  taxBlock,
  transportBlock,
} from './danfe-blocks.js';
import { contingencyName, danfeHeader, danfeStub } from './danfe-header.js';
import { emptyItemsArea, itemsArea } from './danfe-items.js';
import type { DanfeModel } from './danfe-model.js';

const DANFE_CSS = `
table.stub td { height: 8mm; }
td.stub-text { font-size: 6pt; padding: 0.8mm; vertical-align: middle; }
td.stub-number { width: 36mm; text-align: center; vertical-align: middle; font-size: 8pt; font-weight: bold; }
td.stub-number .nfe { font-size: 11pt; }
.cut { border-top: 0.3mm dashed #000; margin: 2mm 0 2.2mm; height: 0; }
table.head td { height: 32mm; padding: 1mm; vertical-align: top; }
td.issuer { width: 80mm; font-size: 7pt; line-height: 1.3; }
td.issuer .issuer-name { font-size: 10pt; font-weight: bold; margin: 1mm 0 1.2mm; line-height: 1.15; }
td.danfe-box { width: 33mm; text-align: center; }
.danfe-title { font-size: 14pt; font-weight: bold; letter-spacing: 0.3mm; }
.danfe-sub { font-size: 6pt; margin: 0.5mm 0 1mm; }
.io { display: flex; align-items: center; justify-content: center; gap: 2mm; font-size: 6.5pt; text-align: left; margin-bottom: 1mm; }
.io-box { border: 0.2mm solid #000; width: 6mm; height: 6mm; font-size: 12pt; font-weight: bold; display: flex; align-items: center; justify-content: center; }
.danfe-num { font-size: 8pt; font-weight: bold; line-height: 1.25; }
.danfe-cont { font-size: 6pt; font-weight: bold; margin-top: 0.6mm; }
td.key-box { text-align: center; }
td.key-box .barcode { width: 75mm; height: 12mm; margin: 0.5mm auto 1mm; }
td.key-box .key-label { text-align: left; }
td.key-box .key { font-size: 8.5pt; font-weight: bold; letter-spacing: 0.1mm; margin: 0.4mm 0 1mm; }
td.key-box .consult { font-size: 7pt; line-height: 1.3; }
td.bills { padding: 0.8mm; }
.bill { display: inline-block; font-size: 6.5pt; margin: 0 3mm 0.6mm 0; white-space: nowrap; }
.items-area { flex: 1 1 0; min-height: 0; overflow: hidden; border: 0.2mm solid #000; }
table.items { width: 100%; border-collapse: collapse; table-layout: fixed; font-size: 6pt; }
table.items th { font-size: 5pt; font-weight: bold; border-bottom: 0.2mm solid #000; border-right: 0.2mm solid #000; padding: 0.4mm 0.3mm; vertical-align: middle; line-height: 1.1; }
table.items td { border-right: 0.2mm solid #000; border-bottom: 0.1mm dotted #777; padding: 0.4mm 0.5mm; vertical-align: top; overflow-wrap: anywhere; line-height: 1.2; }
table.items th:last-child, table.items td:last-child { border-right: none; }
table.items td.r { text-align: right; }
table.items td.m { text-align: center; }
.item-info { font-size: 5.5pt; color: #222; margin-top: 0.3mm; }
table.additional td { height: 28mm; }
table.additional p { margin: 0 0 0.8mm; }
`;

/** The contingency notice (tpEmis other than 1) as the additional data prints it. */
function contingencyNotice(model: DanfeModel): string {
  const name = contingencyName(model.emissionType);
  if (!name) return '';
  const since = model.contingency ? ` Entrada em contingência: ${formatDateTime(model.contingency.at)}.` : '';
  const reason = model.contingency?.reason ? ` Justificativa: ${model.contingency.reason}.` : '';
  return `DANFE EMITIDO EM CONTINGÊNCIA (${name}).${since}${reason}`;
}

/** The notices the renderer adds to the additional data: contingency, correction letter, homologation. */
function notices(model: DanfeModel, options: RenderOptions): string[] {
  const list = [contingencyNotice(model)];
  if (model.environment === '2') list.push('NF-E EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL.');
  const correction = options.correction;
  if (correction) {
    const registered = [
      correction.protocol ? `protocolo ${correction.protocol}` : '',
      correction.registeredAt ? `registrada em ${formatDateTime(correction.registeredAt)}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const header = `CARTA DE CORREÇÃO ELETRÔNICA Nº ${correction.sequence}${registered ? ` (${registered})` : ''}`;
    list.push(
      options.correctionPrint === 'reference'
        ? `Esta NF-e possui ${header}; o texto da correção pode ser consultado pela chave de acesso no portal nacional da NF-e.`
        : `${header}: ${correction.text}`,
    );
  }
  return list.filter(Boolean);
}

function watermarks(model: DanfeModel, options: RenderOptions): string {
  let html = '';
  if (options.status === 'cancelled') html += watermark('CANCELADA');
  if (model.environment === '2') html += watermark('SEM VALOR FISCAL', options.status === 'cancelled' ? 'low' : '');
  return html;
}

export function danfeHtml(model: DanfeModel, options: RenderOptions = {}): string {
  const header = danfeHeader(model);
  const marks = watermarks(model, options);
  const simples = model.issuer.simplesNacional;
  const first =
    '<div class="sheet first">' +
    danfeStub(model) +
    header +
    recipientBlock(model) +
    billingBlock(model) +
    taxBlock(model) +
    transportBlock(model) +
    itemsArea(model.items, simples) +
    issqnBlock(model) +
    additionalBlock(model, notices(model, options)) +
    marks +
    '</div>';
  const continuation =
    `<template id="continuation"><div class="sheet cont">${header}${emptyItemsArea(simples)}${marks}</div></template>` +
    `<template id="additional-continuation">${additionalContinuationBlock()}</template>`;
  return htmlDocument(`DANFE ${model.accessKey}`, BASE_CSS + DANFE_CSS, first + continuation, PAGINATE_SCRIPT);
}
