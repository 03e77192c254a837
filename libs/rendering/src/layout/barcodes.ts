// Barcodes as inline SVG (no image request, vector in the PDF). bwip-js encodes them (`raw`: the symbol's bar widths
// or module matrix); the drawing is ours, one filled path per symbol. Measured on the DANFE's CODE-128: bwip-js's own
// SVG drawing (its PostScript renderer, `toSVG`) costs ~1.4 ms of CPU per key where `raw` costs 0.13; under load it
// was a fifth of the renderer's Node CPU per one-page DANFE (libs/rendering/README.md "Performance"). A scanner needs
// a white background and a quiet zone around the symbol; both are part of the drawing, so the layout cannot eat them.
import bwipjs from 'bwip-js';

/** The CODE-128 quiet zone each side, in modules (the standard's minimum is ten). */
const LINEAR_QUIET_MODULES = 10;
/** The QR code's quiet zone each side, in modules (ISO/IEC 18004's four). */
const QR_QUIET_MODULES = 4;
/** The bars' height in the drawing's units; the SVG stretches to its box, so this only has to be positive. */
const LINEAR_HEIGHT = 40;

function svg(width: number, height: number, path: string, stretch: boolean): string {
  return (
    `<svg viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg"${stretch ? ' preserveAspectRatio="none"' : ''}>` +
    `<rect width="100%" height="100%" fill="#FFFFFF"/><path fill="#000000" d="${path}"/></svg>`
  );
}

/**
 * A linear symbol from its bar/space widths (`sbs`: bar, space, bar… in modules), with the quiet zone, drawn to
 * stretch to the box the layout gives it (the bars' proportions are the module widths).
 */
function linearSvg(sbs: readonly number[]): string {
  let x = LINEAR_QUIET_MODULES;
  let path = '';
  for (let i = 0; i < sbs.length; i++) {
    const width = sbs[i]!;
    if (i % 2 === 0) path += `M${x} 0h${width}v${LINEAR_HEIGHT}h-${width}z`;
    x += width;
  }
  return svg(x + LINEAR_QUIET_MODULES, LINEAR_HEIGHT, path, true);
}

/** A matrix symbol from its modules (`pixs`: rows top to bottom, 1 dark), each row's dark runs as one rectangle. */
function matrixSvg(pixs: readonly number[], columns: number, rows: number): string {
  let path = '';
  for (let row = 0; row < rows; row++) {
    let column = 0;
    while (column < columns) {
      if (pixs[row * columns + column] !== 1) {
        column++;
        continue;
      }
      const start = column;
      while (column < columns && pixs[row * columns + column] === 1) column++;
      path += `M${start + QR_QUIET_MODULES} ${row + QR_QUIET_MODULES}h${column - start}v1h-${column - start}z`;
    }
  }
  return svg(columns + 2 * QR_QUIET_MODULES, rows + 2 * QR_QUIET_MODULES, path, false);
}

/**
 * The NF-e access key as CODE-128 set C (the manual's symbology: 44 digits are 22 symbol characters; bwip-js picks
 * set C for an all-digit even-length text), with a ten-module quiet zone on each side.
 */
export function accessKeyBarcodeSvg(accessKey: string): string {
  if (!/^\d{44}$/.test(accessKey)) throw new Error('the CODE-128C access key barcode takes exactly 44 digits');
  const [symbol] = bwipjs.raw('code128', accessKey, {});
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js returned no CODE-128 bars');
  return linearSvg(symbol.sbs);
}

/** A QR code (bwip-js's default error correction, M) with a four-module quiet zone, square. */
export function qrCodeSvg(text: string): string {
  const [symbol] = bwipjs.raw('qrcode', text, {});
  if (!symbol || !('pixs' in symbol)) throw new Error('bwip-js returned no QR code modules');
  return matrixSvg(symbol.pixs, symbol.pixx, symbol.pixy);
}
