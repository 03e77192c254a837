// What both table generators share (this lib's tables and libs/authorizer-clients' routing tables): reading the CSV
// files in ../shared/fiscal and writing the rows as a TypeScript module.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The tables are plain comma-separated values without quoting; refuse anything else rather than guess. */
export function readCsv(dir, file, expectedHeader) {
  const lines = readFileSync(resolve(dir, file), 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const header = lines.shift();
  if (header !== expectedHeader) throw new Error(`${file}: unexpected header ${header}`);
  return lines.map((line, i) => {
    if (line.includes('"')) throw new Error(`${file}:${i + 2}: quoted fields are not supported`);
    const cells = line.split(',');
    if (cells.length !== expectedHeader.split(',').length) throw new Error(`${file}:${i + 2}: wrong column count`);
    return cells;
  });
}

/** The states of uf_cuf_ibge.csv (in `tablesDir`): IBGE code, UF, name, NF-e authorizer and SVC contingency authorizer. */
export function readStates(tablesDir) {
  return readCsv(tablesDir, 'uf_cuf_ibge.csv', 'cUF,uf,nome_uf,autorizador_nfe55,autorizador_nfce65,contingencia_svc_nfe55').map(
    ([code, uf, name, authorizer, , svc]) => {
      if (!/^\d{2}$/.test(code) || !/^[A-Z]{2}$/.test(uf)) throw new Error(`bad state row ${uf}`);
      if (svc !== 'SVC-AN' && svc !== 'SVC-RS') throw new Error(`bad SVC for ${uf}: ${svc}`);
      return { code, uf, name, authorizer, svc };
    },
  );
}

/** Writes `rows` to `path` as `export const <name>: readonly <type>[]`, the row type imported from `typeModule`. */
export function writeRowsModule(path, banner, { name, type, typeModule }, rows) {
  writeFileSync(
    path,
    `${banner}import type { ${type} } from '${typeModule}';\n\nexport const ${name}: readonly ${type}[] = ${JSON.stringify(rows, null, 2)};\n`,
  );
}
