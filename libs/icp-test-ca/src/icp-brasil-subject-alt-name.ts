import forge from 'node-forge';

const { asn1 } = forge;

// Same OIDs and layouts as DOC-ICP-04 (see libs/xml-signing/src/pkcs12/icp-brasil-tax-id.ts, the reader).
const OID_PERSON_DATA = '2.16.76.1.3.1';
const OID_RESPONSIBLE_NAME = '2.16.76.1.3.2';
const OID_CNPJ = '2.16.76.1.3.3';
const OID_RESPONSIBLE_DATA = '2.16.76.1.3.4';

/** Fixed test data for the responsible person: birth date + CPF + NIS + RG + issuer, zero-filled as allowed. */
const TEST_BIRTH_DATE = '01011980';

function otherName(oid: string, value: string): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(oid).getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, value)]),
  ]);
}

function personData(cpf: string): string {
  return TEST_BIRTH_DATE + cpf + '0'.repeat(11) + '0'.repeat(15) + '0'.repeat(10);
}

/**
 * DER of a subjectAltName in the ICP-Brasil shape. A CNPJ holder (e-CNPJ) carries its CNPJ (2.16.76.1.3.3) plus
 * the responsible person's name and data; a CPF holder (e-CPF) carries the person data with the CPF at offset 8.
 */
export function icpBrasilSubjectAltName(taxId: string, responsibleName: string): string {
  const names =
    taxId.length === 14
      ? [
          otherName(OID_RESPONSIBLE_DATA, personData('0'.repeat(11))),
          otherName(OID_RESPONSIBLE_NAME, responsibleName),
          otherName(OID_CNPJ, taxId),
        ]
      : [otherName(OID_PERSON_DATA, personData(taxId))];
  return asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, names)).getBytes();
}
