import forge from 'node-forge';

const { asn1, pki } = forge;

const PBE_SHA1_RC2_40 = '1.2.840.113549.1.12.1.6';
const ITERATIONS = 2048;

function contentInfoSequence(pfx: forge.asn1.Asn1): forge.asn1.Asn1[] {
  // PFX ::= SEQUENCE { version, authSafe ContentInfo { data, [0] OCTET STRING (DER AuthenticatedSafe) }, macData }
  const authSafe = (pfx.value as forge.asn1.Asn1[])[1] as forge.asn1.Asn1;
  const explicit = (authSafe.value as forge.asn1.Asn1[])[1] as forge.asn1.Asn1;
  const octets = (explicit.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
  const authenticatedSafe = asn1.fromDer(octets.value as string);
  return authenticatedSafe.value as forge.asn1.Asn1[];
}

/** Encrypts a plain `data` ContentInfo (a SafeContents) into an `encryptedData` one with pbeWithSHAAnd40BitRC2-CBC. */
function encryptWithRc2Forty(plainContentInfo: forge.asn1.Asn1, password: string): forge.asn1.Asn1 {
  const explicit = (plainContentInfo.value as forge.asn1.Asn1[])[1] as forge.asn1.Asn1;
  const safeContentsDer = ((explicit.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1).value as string;
  const salt = forge.random.getBytesSync(8);
  const key = forge.pkcs12.generateKey(password, forge.util.createBuffer(salt), 1, ITERATIONS, 5);
  const iv = forge.pkcs12.generateKey(password, forge.util.createBuffer(salt), 2, ITERATIONS, 8);
  const cipher = forge.rc2.createEncryptionCipher(key, 40);
  cipher.start(iv);
  cipher.update(forge.util.createBuffer(safeContentsDer));
  cipher.finish();
  const encrypted = cipher.output.getBytes();
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.encryptedData!).getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, String.fromCharCode(0)),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.data!).getBytes()),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(PBE_SHA1_RC2_40).getBytes()),
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
              asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, salt),
              asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(ITERATIONS).getBytes()),
            ]),
          ]),
          asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, encrypted),
        ]),
      ]),
    ]),
  ]);
}

function macData(authenticatedSafeDer: string, password: string): forge.asn1.Asn1 {
  const salt = forge.random.getBytesSync(8);
  const key = forge.pkcs12.generateKey(password, forge.util.createBuffer(salt), 3, ITERATIONS, 20);
  const hmac = forge.hmac.create();
  hmac.start('sha1', key);
  hmac.update(authenticatedSafeDer);
  const digest = hmac.digest().getBytes();
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.sha1!).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
      ]),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, digest),
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, salt),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(ITERATIONS).getBytes()),
  ]);
}

/**
 * A PKCS#12 as older Windows/OpenSSL 1.x exports wrote it and many real A1 files still are: certificates in an
 * RC2-40 encrypted SafeContents, key shrouded with 3DES (pbeWithSHAAnd3-KeyTripleDES-CBC), HMAC-SHA1 MAC.
 * forge writes only the key shrouding and no RC2, so its output is re-wrapped here.
 */
export function legacyRc2Pkcs12(
  key: forge.pki.rsa.PrivateKey,
  certificates: forge.pki.Certificate[],
  password: string,
  friendlyName: string,
): Buffer {
  const modern = forge.pkcs12.toPkcs12Asn1(key, certificates, password, {
    algorithm: '3des',
    useMac: false,
    friendlyName,
    count: ITERATIONS,
  });
  const [certificatesInfo, keyInfo] = contentInfoSequence(modern);
  if (!certificatesInfo || !keyInfo) throw new Error('Unexpected PKCS#12 layout from node-forge');
  const authenticatedSafeDer = asn1
    .toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [encryptWithRc2Forty(certificatesInfo, password), keyInfo]))
    .getBytes();
  const pfx = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, String.fromCharCode(3)),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.data!).getBytes()),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, authenticatedSafeDer),
      ]),
    ]),
    macData(authenticatedSafeDer, password),
  ]);
  return Buffer.from(asn1.toDer(pfx).getBytes(), 'binary');
}
