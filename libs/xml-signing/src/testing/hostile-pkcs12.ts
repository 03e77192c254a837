// PKCS#12 files built to hurt a reader: iteration counts the file chooses, bags node:crypto cannot read. For tests of
// loadPkcs12 and of the admin API's certificate upload.
import forge from 'node-forge';

const { asn1 } = forge;
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const integer = (value: number) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(value).getBytes());

/**
 * A copy of `pfx` with every iteration count (INTEGER 2048, forge's default, the only INTEGERs of that value in the
 * file) set to `count`: the MAC's, and those of the encrypted parts inside the `data` containers (forge puts the
 * shrouded key there); the contents stay encrypted with 2048.
 */
export function withIterationCounts(pfx: Buffer, count: number): Buffer {
  const dataOid = asn1.oidToDer(forge.pki.oids.data as string).getBytes();
  const replace = (node: forge.asn1.Asn1): forge.asn1.Asn1 => {
    if (node.tagClass === asn1.Class.UNIVERSAL && node.type === asn1.Type.INTEGER && asn1.derToInteger(node.value as string) === 2048)
      return integer(count);
    if (!Array.isArray(node.value)) return node;
    const [first, second] = node.value;
    // ContentInfo { data, [0] { OCTET STRING (DER of what it holds) } }: rewrite what it holds.
    if (first?.type === asn1.Type.OID && first.value === dataOid && second && Array.isArray(second.value)) {
      const octets = second.value[0]!;
      octets.value = asn1.toDer(replace(asn1.fromDer(forge.util.createBuffer(octets.value as string)))).getBytes();
      return node;
    }
    node.value = node.value.map(replace);
    return node;
  };
  return der(replace(asn1.fromDer(forge.util.createBuffer(pfx.toString('binary')))));
}

/** A PFX without MAC whose one SafeContents holds the given bags, unencrypted. */
export function pfxOfBags(bags: forge.asn1.Asn1[]): Buffer {
  const oid = (name: string) =>
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids[name] as string).getBytes());
  const explicit = (inner: forge.asn1.Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
  const octets = (node: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, asn1.toDer(node).getBytes());
  const sequence = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
  const data = (content: forge.asn1.Asn1) => sequence([oid('data'), explicit(octets(content))]);
  return der(sequence([integer(3), data(sequence([data(sequence(bags))]))]));
}

export function garbageBag(kind: 'keyBag' | 'certBag'): forge.asn1.Asn1 {
  const oid = (id: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(id).getBytes());
  const junk = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    integer(7),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, 'garbage'),
  ]);
  const value =
    kind === 'keyBag'
      ? junk
      : asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          oid(forge.pki.oids.x509Certificate as string),
          asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, asn1.toDer(junk).getBytes()),
          ]),
        ]);
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    oid(forge.pki.oids[kind] as string),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [value]),
  ]);
}
