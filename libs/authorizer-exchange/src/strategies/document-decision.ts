/**
 * How the authorization of a document ended at the authorizer, in the fields of the invoice it decides (a field left
 * undefined keeps the invoice's value). `issued` carries the legal file when the answer brought it: nfeProc for an
 * NF-e, the NFS-e XML for a DPS.
 */
export interface DocumentDecision {
  status: 'issued' | 'rejected' | 'cancelled';
  accessKey?: string;
  protocol?: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  authorizedXml?: string | null;
}
