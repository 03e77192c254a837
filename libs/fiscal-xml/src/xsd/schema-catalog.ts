import { fileURLToPath } from 'node:url';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const NFSE = 'http://www.sped.fazenda.gov.br/nfse';

/** Package folders copied into libs/fiscal-xml/schemas (see schemas/README.md for origin and selection). */
export const NFE_SCHEMA_PACKAGE = 'nfe/PL_010_V1.30';
export const NFSE_SCHEMA_PACKAGE = 'nfse/v1.01';

interface SchemaEntry {
  /** Entry file, relative to the package folder. */
  file: string;
  /** The root element the document must have: an XSD also accepts its imported globals (ds:Signature). */
  root: string;
  namespace: string;
  package: 'nfe' | 'nfse';
}

const nfe = (file: string, root: string): SchemaEntry => ({ file, root, namespace: NFE, package: 'nfe' });
const nfse = (file: string, root: string): SchemaEntry => ({ file, root, namespace: NFSE, package: 'nfse' });

export const SCHEMAS = {
  // NF-e 4.00 requests
  nfe: nfe('nfe_v4.00.xsd', 'NFe'),
  enviNFe: nfe('enviNFe_v4.00.xsd', 'enviNFe'),
  consSitNFe: nfe('consSitNFe_v4.00.xsd', 'consSitNFe'),
  consStatServ: nfe('consStatServ_v4.00.xsd', 'consStatServ'),
  inutNFe: nfe('inutNFe_v4.00.xsd', 'inutNFe'),
  envEventoCancNFe: nfe('envEventoCancNFe_v1.00.xsd', 'envEvento'),
  envCCe: nfe('envCCe_v1.00.xsd', 'envEvento'),
  envConfRecebto: nfe('envConfRecebto_v1.00.xsd', 'envEvento'),
  envEvento: nfe('envEvento_v1.00.xsd', 'envEvento'),
  distDFeInt: nfe('distDFeInt_v1.01.xsd', 'distDFeInt'),
  // NF-e responses and stored documents (the simulator validates what it answers)
  retEnviNFe: nfe('retEnviNFe_v4.00.xsd', 'retEnviNFe'),
  retConsSitNFe: nfe('retConsSitNFe_v4.00.xsd', 'retConsSitNFe'),
  retConsStatServ: nfe('retConsStatServ_v4.00.xsd', 'retConsStatServ'),
  retInutNFe: nfe('retInutNFe_v4.00.xsd', 'retInutNFe'),
  retEnvEventoCancNFe: nfe('retEnvEventoCancNFe_v1.00.xsd', 'retEnvEvento'),
  retEnvCCe: nfe('retEnvCCe_v1.00.xsd', 'retEnvEvento'),
  retEnvConfRecebto: nfe('retEnvConfRecebto_v1.00.xsd', 'retEnvEvento'),
  retEnvEvento: nfe('retEnvEvento_v1.00.xsd', 'retEnvEvento'),
  retDistDFeInt: nfe('retDistDFeInt_v1.01.xsd', 'retDistDFeInt'),
  resNFe: nfe('resNFe_v1.01.xsd', 'resNFe'),
  resEvento: nfe('resEvento_v1.01.xsd', 'resEvento'),
  procNFe: nfe('procNFe_v4.00.xsd', 'nfeProc'),
  procEventoNFe: nfe('procEventoNFe_v1.00.xsd', 'procEventoNFe'),
  procInutNFe: nfe('procInutNFe_v4.00.xsd', 'ProcInutNFe'),
  // NFS-e Nacional 1.01
  dps: nfse('DPS_v1.01.xsd', 'DPS'),
  nfse: nfse('NFSe_v1.01.xsd', 'NFSe'),
  pedRegEvento: nfse('pedRegEvento_v1.01.xsd', 'pedRegEvento'),
  evento: nfse('evento_v1.01.xsd', 'evento'),
} as const satisfies Record<string, SchemaEntry>;

export type SchemaName = keyof typeof SCHEMAS;

export function isSchemaName(name: string): name is SchemaName {
  return Object.hasOwn(SCHEMAS, name);
}

/** The copied schemas: src/xsd (or dist/xsd after the build) → ../../schemas. */
export const BUNDLED_SCHEMA_ROOT = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** Where each schema's entry file lives below a schema root laid out like libs/fiscal-xml/schemas. */
export function bundledSchemaFile(root: string, schema: SchemaName): string {
  const entry = SCHEMAS[schema];
  const folder = entry.package === 'nfe' ? NFE_SCHEMA_PACKAGE : NFSE_SCHEMA_PACKAGE;
  return `${root.replace(/\/$/, '')}/${folder}/${entry.file}`;
}
