import forge from 'node-forge';

// ICP-Brasil (DOC-ICP-04, "Requisitos mínimos para as políticas de certificado") stores the holder's identity in
// subjectAltName otherName entries. The OIDs below and the fixed offsets are from that document.
export const ICP_BRASIL_OID = {
  /** Natural person: birth date ddmmaaaa (8) + CPF (11) + NIS (11) + RG (15) + issuer and state (10). */
  personData: '2.16.76.1.3.1',
  /** Legal entity: name of the person responsible for the certificate. */
  responsibleName: '2.16.76.1.3.2',
  /** Legal entity: CNPJ (14 positions). */
  cnpj: '2.16.76.1.3.3',
  /** Legal entity: data of the responsible person, same layout as personData. */
  responsibleData: '2.16.76.1.3.4',
} as const;

const SUBJECT_ALT_NAME_OID = '2.5.29.17';
const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;
const CPF_SHAPE = /^[0-9]{11}$/;
const CPF_OFFSET_IN_PERSON_DATA = 8;

type Asn1 = forge.asn1.Asn1;

function children(node: Asn1 | undefined): Asn1[] {
  return node && Array.isArray(node.value) ? (node.value as Asn1[]) : [];
}

function primitiveBytes(node: Asn1 | undefined): string | null {
  return node && typeof node.value === 'string' ? node.value : null;
}

/** otherName entries of the certificate's subjectAltName, as OID → raw string value (latin1 bytes). */
export function readSubjectAltNameOtherNames(certificateDer: Buffer): Map<string, string> {
  const found = new Map<string, string>();
  const certificate = forge.asn1.fromDer(forge.util.createBuffer(certificateDer.toString('binary')));
  const tbs = children(certificate)[0];
  const extensionsWrapper = children(tbs).find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === 3);
  for (const extension of children(children(extensionsWrapper)[0])) {
    const parts = children(extension);
    const oidBytes = primitiveBytes(parts[0]);
    if (oidBytes === null || forge.asn1.derToOid(oidBytes) !== SUBJECT_ALT_NAME_OID) continue;
    const extensionValue = primitiveBytes(parts[parts.length - 1]);
    if (extensionValue === null) continue;
    const generalNames = forge.asn1.fromDer(forge.util.createBuffer(extensionValue));
    for (const generalName of children(generalNames)) {
      // otherName is GeneralName [0]: SEQUENCE-like { type-id OID, value [0] EXPLICIT ANY }.
      if (generalName.tagClass !== forge.asn1.Class.CONTEXT_SPECIFIC || generalName.type !== 0) continue;
      const [typeId, explicitValue] = children(generalName);
      const typeIdBytes = primitiveBytes(typeId);
      const value = primitiveBytes(children(explicitValue)[0]);
      if (typeIdBytes !== null && value !== null) found.set(forge.asn1.derToOid(typeIdBytes), value);
    }
  }
  return found;
}

/**
 * CNPJ (14 positions, the first 12 may be letters since the 2026 alphanumeric CNPJ) or CPF (11 digits) of the
 * holder: the SAN otherName first (the normative place), then the "NAME:TAXID" suffix of the subject CN that
 * ICP-Brasil certificates also carry. Null when neither yields a well-shaped number.
 */
export function extractTaxId(certificateDer: Buffer, subjectCommonName: string | null): string | null {
  let otherNames: Map<string, string>;
  try {
    otherNames = readSubjectAltNameOtherNames(certificateDer);
  } catch {
    otherNames = new Map();
  }
  const cnpj = otherNames
    .get(ICP_BRASIL_OID.cnpj)
    ?.replace(/[^0-9A-Za-z]/g, '')
    .toUpperCase();
  if (cnpj && CNPJ_SHAPE.test(cnpj) && !/^0+$/.test(cnpj)) return cnpj;
  const personData = otherNames.get(ICP_BRASIL_OID.personData);
  const cpf = personData?.slice(CPF_OFFSET_IN_PERSON_DATA, CPF_OFFSET_IN_PERSON_DATA + 11);
  if (cpf && CPF_SHAPE.test(cpf) && !/^0+$/.test(cpf)) return cpf;

  const suffix = subjectCommonName
    ?.trim()
    .match(/:\s*([0-9A-Za-z]{11,14})$/)?.[1]
    ?.toUpperCase();
  if (suffix && (CNPJ_SHAPE.test(suffix) || CPF_SHAPE.test(suffix))) return suffix;
  return null;
}
