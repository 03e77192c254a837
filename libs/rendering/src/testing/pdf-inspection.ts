// Test support: reads a PDF with tools that share nothing with the renderer — poppler-utils (pdftotext, pdfinfo,
// pdffonts, pdftoppm) and zbar-tools (zbarimg) — the way a person or a scanner at the receiving dock would.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DecodedSymbol {
  /** zbar's symbology name: CODE-128, QR-Code, … */
  readonly type: string;
  readonly data: string;
}

export class PdfInspection {
  private readonly dir = mkdtempSync(join(tmpdir(), 'talao-pdf-'));
  private readonly file = join(this.dir, 'document.pdf');

  constructor(pdf: Uint8Array) {
    writeFileSync(this.file, pdf);
  }

  /** pdfinfo's fields (Pages, Page size, …). */
  info(): Record<string, string> {
    const out = execFileSync('pdfinfo', [this.file], { encoding: 'utf8' });
    return Object.fromEntries(
      out
        .split('\n')
        .filter((l) => l.includes(':'))
        .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
    );
  }

  pageCount(): number {
    return Number(this.info().Pages);
  }

  /** The text of one page (1-based), in reading order. */
  text(page: number): string {
    return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), this.file, '-'], { encoding: 'utf8' });
  }

  /** The text of one page with its layout kept (columns side by side), for "label above value" checks. */
  layoutText(page: number): string {
    return execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), this.file, '-'], { encoding: 'utf8' });
  }

  /** The text in content-stream order (pdftotext -raw): how rotated watermarks come out as words. */
  rawText(page: number): string {
    return execFileSync('pdftotext', ['-raw', '-f', String(page), '-l', String(page), this.file, '-'], { encoding: 'utf8' });
  }

  /**
   * The value printed under a field label: in the page's layout text, the first non-blank line below the label's
   * line, read from the label's column up to the next gap of two spaces. Undefined when the label is not there.
   */
  valueBelow(page: number, label: string): string | undefined {
    const lines = this.layoutText(page).split('\n');
    const index = lines.findIndex((line) => line.includes(label));
    if (index < 0) return undefined;
    const column = (lines[index] as string).indexOf(label);
    const below = lines.slice(index + 1).find((line) => line.slice(column).trim() !== '') ?? '';
    return below
      .slice(column)
      .trimStart()
      .split(/\s{2,}/)[0];
  }

  /** Embedded font names (pdffonts), without the subset prefix. */
  fonts(): { name: string; embedded: boolean }[] {
    const lines = execFileSync('pdffonts', [this.file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
    return lines.map((line) => {
      const columns = line.trim().split(/\s+/);
      return { name: (columns[0] ?? '').replace(/^[A-Z]{6}\+/, ''), embedded: columns.at(-5) === 'yes' };
    });
  }

  /** The page as a PNG (pdftoppm), e.g. for the committed screenshots. */
  png(page: number, dpi: number): Buffer {
    const prefix = join(this.dir, `page-${page}-${dpi}`);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', '-f', String(page), '-l', String(page), this.file, prefix]);
    return readFileSync(`${prefix}.png`);
  }

  /** Every barcode zbarimg reads on the page rendered at `dpi`. */
  symbols(page: number, dpi = 300): DecodedSymbol[] {
    const image = join(this.dir, `scan-${page}.png`);
    writeFileSync(image, this.png(page, dpi));
    const run = spawnSync('zbarimg', ['-q', image], { encoding: 'utf8' });
    if (run.error) throw run.error;
    // Exit 4 is "no symbol found": an empty answer, not a tool failure.
    if (run.status !== 0 && run.status !== 4) throw new Error(`zbarimg failed (${run.status}): ${run.stderr}`);
    return run.stdout
      .split('\n')
      .filter((line) => line.includes(':'))
      .map((line) => ({ type: line.slice(0, line.indexOf(':')), data: line.slice(line.indexOf(':') + 1) }));
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Brazilian money as a reader sees it, computed here independently of the renderer's formatting. */
export function brl(value: string): string {
  return new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value));
}
