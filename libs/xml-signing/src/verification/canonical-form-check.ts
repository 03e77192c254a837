import { DOMParser } from '@xmldom/xmldom';
import { C14nCanonicalization, ExclusiveCanonicalization, findAncestorNs } from 'xml-crypto';
import { locateCanonicalElement } from '../signing/canonical-element.js';
import { type CanonicalizationKind } from '../signing/signature-profiles.js';

/**
 * For builders' tests: does the signer's string-level canonical form of the element `Id="<id>"` equal the C14N
 * xml-crypto computes from the parsed document? Returns null when equal, otherwise where they first differ. A
 * difference means the builder broke the canonical-by-construction contract (README): the signature would not
 * verify. Test-time only: it parses the document.
 */
export function canonicalFormMismatch(xml: string, id: string, kind: CanonicalizationKind): string | null {
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) return 'DOCTYPE and entity declarations are refused';
  const ours = locateCanonicalElement(xml, id, kind).canonical;
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const xpath = `//*[@Id='${id}']`;
  const element = Array.from(document.getElementsByTagName('*')).find((node) => node.getAttribute('Id') === id);
  if (!element) return `No element with Id="${id}" after parsing`;
  const canonicalizer = kind === 'inclusive' ? new C14nCanonicalization() : new ExclusiveCanonicalization();
  const reference = canonicalizer.process(element, { ancestorNamespaces: findAncestorNs(document, xpath) });
  if (reference === ours) return null;
  let at = 0;
  while (at < ours.length && ours[at] === reference[at]) at++;
  return `Canonical forms differ at offset ${at}: signer "${ours.slice(Math.max(0, at - 40), at + 40)}" vs C14N "${reference.slice(Math.max(0, at - 40), at + 40)}"`;
}
