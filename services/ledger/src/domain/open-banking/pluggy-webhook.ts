import type { PluggyWebhookBody } from '@finance/shared/contracts/ledger/open-banking-connections';
import { sameSecret } from '@finance/shared/http/same-secret';
import { Reply } from '@finance/shared/http/service-routes';
import type { EntityManager } from '@mikro-orm/postgresql';
import { takeItemWebhookTurn } from '../../data-access/connection-repository.ts';
import { type OpenFinance, PLUGGY } from './open-finance.ts';
import { endAtInstitution, queueSync } from './sync-connection.ts';

/** Shortest secret a webhook URL may carry (a random token of 32 characters or more). */
/**
 * Pluggy's webhook (public; Pluggy signs nothing): it acts only with the secret `token` of PLUGGY_WEBHOOK_URL,
 * compared in constant time, and for one item at most once per interval (the turn is taken in one statement);
 * then the item is read back from Pluggy, so even a genuine payload cannot name another connection's item: gone,
 * it revokes the connection; live, it queues a sync (coalesced with one already queued). Whoever calls, whatever
 * happens, the answer is the same 202.
 */
export async function receivePluggyWebhook(
  em: EntityManager,
  openFinance: OpenFinance,
  token: string | undefined,
  body: PluggyWebhookBody,
  relaySoon: () => void,
): Promise<Reply> {
  const received = new Reply(202, { received: true });
  const { pluggy, pluggyWebhook } = openFinance;
  if (!pluggy || !pluggyWebhook || token === undefined || !sameSecret(token, pluggyWebhook.token)) return received;
  if (!body.itemId) return received;
  const connection = await takeItemWebhookTurn(em, PLUGGY, body.itemId, pluggyWebhook.intervalSeconds);
  if (!connection) return received;
  const ctx = { userId: connection.user_id, profileId: connection.profile_id, business: false, keyId: null };
  // Pluggy unreachable now: the scheduled sync will see the item anyway
  const item = await pluggy.item(body.itemId).catch(() => undefined);
  if (item === undefined) return received;
  if (item === null) {
    await endAtInstitution(em, ctx, connection, 'REVOKED', 'ITEM_DELETED');
    return received;
  }
  if (item.clientUserId !== connection.id) return received;
  const queued = await em.transactional((tx) => queueSync(tx, ctx, connection.id));
  if (queued) relaySoon();
  return received;
}
