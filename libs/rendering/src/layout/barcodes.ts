// Barcodes drawn as inline SVG by bwip-js (no image request, vector in the PDF). A scanner needs a white background
// and a quiet zone of at least ten modules on each side of a CODE-128; both are part of the drawing, so the
// surrounding layout cannot eat them.
import bwipjs from 'bwip-js';

/** SVG whose drawing stretches to the box the layout gives it (the bars' proportions are the module widths). */
function stretchable(svg: string): string {
  return svg.replace('<svg ', '<svg preserveAspectRatio="none" ');
}

/**
 * The NF-e access key as CODE-128 set C (the manual's symbology: 44 digits are 22 symbol characters; bwip-js picks
 * set C for an all-digit even-length text), with a ten-module quiet zone on each side.
 */
export function accessKeyBarcodeSvg(accessKey: string): string {
  if (!/^\d{44}$/.test(accessKey)) throw new Error('the CODE-128C access key barcode takes exactly 44 digits');
  return stretchable(
    bwipjs.toSVG({
      bcid: 'code128',
      text: accessKey,
      height: 12,
      includetext: false,
      backgroundcolor: 'FFFFFF',
      paddingwidth: 10,
      paddingheight: 1,
    }),
  );
}

/** A QR code (bwip-js's default error correction, M) with a four-module quiet zone, square. */
export function qrCodeSvg(text: string): string {
  return bwipjs.toSVG({ bcid: 'qrcode', text, backgroundcolor: 'FFFFFF', paddingwidth: 4, paddingheight: 4 });
}
