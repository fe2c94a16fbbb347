import type { BillingClient } from '@finance/shared/clients/billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { balancesOf, findAccount, lockContext } from '../../data-access/account-repository.ts';
import { execute, makePlainEntries, softDelete } from '../../data-access/transaction-repository.ts';
import { moveCardsInBilling, planCardsOfDeletedAccount } from '../billing-support/account-cards.ts';
import { requestConsentRevocationIfLast } from '../open-banking/revoke-consent.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { accountView } from './account-view.ts';

/**
 * DELETE /v1/accounts/{id}: logical, with its transactions; the other leg of a transfer, in an account that
 * survives, stays there as a plain entry (the money did move); a deleted
 * default passes to the oldest remaining account; linked cards move to the (new) default account.
 */
export async function deleteAccount(em: EntityManager, ctx: CallerContext, id: string, billing: BillingClient) {
  // billing is asked before the transaction and told after it (docs/architecture.md rule 9)
  const linked = await billing.linkedCards(ctx, id);
  const outcome = await em.transactional(async (tx) => {
    await lockContext(tx, ctx, 'accounts');
    const account = await findAccount(tx, ctx, id, true);
    if (!account) throw notFound('Conta não encontrada');
    // the answer shows the account as it was when deleted
    const view = accountView(account, (await balancesOf(tx, [account])).get(account.id) ?? 0);
    const ids = await execute<{ id: string; own: boolean }>(
      tx,
      `select distinct m.id, m.account_id is not distinct from t.account_id as own from transactions t
       join transactions m on m.id = t.id or (t.type = 'TRANSFER' and m.connected_transaction_id = t.connected_transaction_id)
       where t.account_id = ? and t.deleted_at is null and m.deleted_at is null`,
      [account.id],
    );
    const deleted = await softDelete(
      tx,
      ids.filter((row) => row.own).map((row) => row.id),
    );
    const kept = await makePlainEntries(
      tx,
      ids.filter((row) => !row.own).map((row) => row.id),
    );
    const wasDefault = account.isDefault;
    account.deletedAt = new Date();
    account.isDefault = false;
    await tx.flush();
    await requestConsentRevocationIfLast(tx, ctx, account.connectionId);
    if (wasDefault) {
      await execute(
        tx,
        `update accounts set is_default = true, updated_at = now() where id = (
           select id from accounts where deleted_at is null and coalesce(profile_id, user_id) = ?
             and ${ctx.profileId ? 'profile_id = ?' : 'profile_id is null and user_id = ?'}
           order by created_at, id limit 1)`,
        [ctx.profileId ?? ctx.userId, ctx.profileId ?? ctx.userId],
      );
    }
    const successor = await planCardsOfDeletedAccount(tx, ctx, account.id, linked);
    recordTransactionChanges(tx, ctx, 'deleted', deleted);
    recordTransactionChanges(tx, ctx, 'updated', kept);
    return { view, successor };
  });
  const { view, successor } = outcome;
  let movedCreditCards: Array<{ id: string; account_id: string }> = [];
  if (successor) {
    try {
      movedCreditCards = await moveCardsInBilling(billing, ctx, id, successor);
    } catch {
      // the outbox job recorded with the deletion moves them; the answer shows where they are going
      movedCreditCards = linked.map((card) => ({ id: card.id, account_id: successor }));
    }
  }
  return { ...view, creditCards: [], movedCreditCards };
}
