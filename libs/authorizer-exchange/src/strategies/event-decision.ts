/** How the authorizer decided an event filed on a document (cancellation, correction letter). */
export interface EventDecision {
  status: 'registered' | 'rejected';
  /** The event's protocol (nProt of retEvento; the event Id at the NFS-e national environment). */
  protocol: string | null;
  statusCode: string | null;
  statusMessage: string | null;
}
