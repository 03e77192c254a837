// The stylesheet shared by the DANFE and the DANFSe. Sizes follow the manuals' minimums: labels 5 pt bold upper
// case, values 7 pt (≥ 6), block titles 6 pt bold. The font is Liberation Sans (Debian fonts-liberation), metric-
// compatible with Arial, which the manuals name; Chromium finds it through fontconfig (no request of any kind) and
// embeds the subset it uses in the PDF.

/**
 * A4 portrait, each `.sheet` one page; the page margin lives inside the sheet so the PDF has no margin of its own.
 *
 * On screen the document is laid out (the paginator measures it there) but never painted: these pages are only
 * printed, and a visible page is also rasterised for the screen — 256×256 tiles in shared memory and the CPU to fill
 * them, for frames nobody looks at. Hidden, every tile is one solid colour and nothing is rasterised. Measured on 4
 * pages (libs/rendering/README.md "Performance"): Chromium's 44 MB of tiles gone, ~10 % less of its CPU per PDF.
 * `visibility` keeps every box's size, so the pagination measures the same; print media does not see the rule.
 */
export const BASE_CSS = `
@page { size: A4 portrait; margin: 0; }
@media screen { html { visibility: hidden; } }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: 'Liberation Sans', Arial, sans-serif; color: #000; font-size: 7pt; line-height: 1.15;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.sheet { position: relative; width: 210mm; height: 296.9mm; padding: 2mm; overflow: hidden; break-after: page; page-break-after: always;
  display: flex; flex-direction: column; }
.sheet:last-of-type { break-after: auto; page-break-after: auto; }
table.grid { width: 100%; border-collapse: collapse; table-layout: fixed; margin-top: -0.2mm; }
table.grid td { border: 0.2mm solid #000; vertical-align: top; padding: 0.3mm 0.8mm 0.2mm; overflow: hidden; }
.l { font-size: 5pt; font-weight: bold; text-transform: uppercase; white-space: nowrap; overflow: hidden; line-height: 1.2; }
td.c .v { font-size: 7pt; white-space: nowrap; overflow: hidden; text-overflow: clip; min-height: 8.2pt; padding-top: 0.4mm; }
td.c.wrap .v { white-space: normal; overflow-wrap: anywhere; }
td.c.strong .v { font-weight: bold; }
td.r .v { text-align: right; }
td.m .v, td.m .l { text-align: center; }
.bt { font-size: 6pt; font-weight: bold; text-transform: uppercase; margin: 1.2mm 0 0.5mm; line-height: 1; }
.wm { position: absolute; left: 0; top: 0; width: 210mm; height: 297mm; display: flex; align-items: center; justify-content: center;
  pointer-events: none; z-index: 10; }
.wm span { transform: rotate(-35deg); font-size: 58pt; font-weight: bold; color: rgba(0, 0, 0, 0.16); white-space: nowrap; }
.wm.low { align-items: flex-end; padding-bottom: 45mm; }
.wm.low span { font-size: 34pt; }
.barcode svg, .qrcode svg { display: block; width: 100%; height: 100%; }
`;
