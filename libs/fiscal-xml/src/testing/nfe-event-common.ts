// Test support: the fields every NF-e event carries, for events of the homologation environment on São Paulo time.
import type { NfeEventCommon } from '../nfe/events/event-message.js';

/** An event on the access key, authored by the CNPJ at eventAt, in homologation and at UTC−3. */
export function homologationEventCommon(accessKey: string, cnpj: string, eventAt: Date): NfeEventCommon {
  return { environment: 'homologation', author: { cnpj }, accessKey, eventAt, utcOffset: '-03:00' };
}
