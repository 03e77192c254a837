// talao_received_sync_blocked_until_seconds: each company's distribution cursor and the authority's cap on it (137
// nothing new, 656 consumo indevido), read from PostgreSQL at scrape time — the truth whichever replica synced last.
import { onScrape, receivedSyncBlockedUntil } from '@talao/observability';
import type { ReceivedDocumentsRepository } from '@talao/persistence';

export function reportCapStates(received: Pick<ReceivedDocumentsRepository, 'capStates'>): () => void {
  return onScrape(async () => {
    const states = await received.capStates();
    const now = Date.now();
    receivedSyncBlockedUntil.reset();
    for (const state of states) {
      const held = state.blockedUntil !== null && state.blockedUntil.getTime() > now;
      receivedSyncBlockedUntil.set(
        {
          company_id: state.companyId,
          environment: state.environment,
          channel: state.channel,
          code: held ? (state.blockedCode ?? '') : '',
        },
        held ? state.blockedUntil!.getTime() / 1000 : 0,
      );
    }
  });
}
