/** Largest document validated: a retDistDFeInt with 50 docZip or a 990-item NF-e stays far below. */
export const MAX_VALIDATED_XML_BYTES = 20 * 1024 * 1024;

/**
 * Refuses what libxml2 must never see: a DTD (internal subset, external entity, entity expansion) or an oversized
 * document. Fiscal XML has no legitimate use for either. Returns the reason, or null when the text may be parsed.
 */
export function hostileXmlReason(xml: string): { line: number; message: string } | null {
  if (Buffer.byteLength(xml, 'utf8') > MAX_VALIDATED_XML_BYTES) {
    return { line: 0, message: `Document larger than ${MAX_VALIDATED_XML_BYTES} bytes refused` };
  }
  const match = /<!(DOCTYPE|ENTITY)/i.exec(xml);
  if (match) {
    const line = xml.slice(0, match.index).split('\n').length;
    return { line, message: `<!${match[1]!.toUpperCase()}> is not allowed in fiscal XML (DTDs and entities are refused)` };
  }
  return null;
}
