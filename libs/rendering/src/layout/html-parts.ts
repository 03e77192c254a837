// The few HTML shapes every block of both layouts is made of: a labelled field in a ruled grid, a block title, a
// page ("sheet"), the watermark. Values are escaped here, once; callers pass plain text.
import { escapeHtml } from '../format/text.js';

export interface CellOptions {
  /** Width in millimetres; omitted: the column takes what the others leave. */
  readonly width?: number;
  readonly align?: 'left' | 'right' | 'center';
  /** Extra classes: `wrap` lets a long value wrap instead of being cut at the cell's edge; `strong` bolds it. */
  readonly className?: string;
  readonly colspan?: number;
  readonly rowspan?: number;
}

/** A labelled field: label (≥ 5 pt bold upper case) over value (≥ 6 pt). */
export function cell(label: string, value: string, options: CellOptions = {}): string {
  const style = options.width !== undefined ? ` style="width:${options.width}mm"` : '';
  const classes = ['c', options.align === 'right' ? 'r' : options.align === 'center' ? 'm' : '', options.className ?? '']
    .filter(Boolean)
    .join(' ');
  const span = (options.colspan ? ` colspan="${options.colspan}"` : '') + (options.rowspan ? ` rowspan="${options.rowspan}"` : '');
  return `<td class="${classes}"${style}${span}><div class="l">${escapeHtml(label)}</div><div class="v">${escapeHtml(value)}</div></td>`;
}

/** One ruled row of cells (a table of its own, so each row chooses its columns). */
export function row(cells: readonly string[], heightMm?: number): string {
  const style = heightMm !== undefined ? ` style="height:${heightMm}mm"` : '';
  return `<table class="grid"${style}><tr>${cells.join('')}</tr></table>`;
}

export function blockTitle(title: string): string {
  return `<div class="bt">${escapeHtml(title)}</div>`;
}

/** Diagonal text across the page (homologation, cancelled, replaced): printed over the content, light grey. */
export function watermark(text: string, className = ''): string {
  return `<div class="wm ${className}"><span>${escapeHtml(text)}</span></div>`;
}

/** A complete HTML document: the stylesheet inline, no external reference of any kind. */
export function htmlDocument(title: string, css: string, body: string, script = ''): string {
  return (
    `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<style>${css}</style></head><body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`
  );
}
