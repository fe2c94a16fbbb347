import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  balancesOf,
  findAccount,
  liveTransactionsOfAccount,
  lockContext,
  makeOldestAccountDefault,
} from '../../data-access/account-repository.ts';
import { lockImportHolders } from '../../data-access/import-keys.ts';
import { makePlainEntries, softDelete } from '../../data-access/transaction-repository.ts';
import { requestConsentRevocationIfLast } from '../open-banking/revoke-consent.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { accountView } from './account-view.ts';
import { moveCardsInBilling, planCardsOfDeletedAccount } from './deleted-account-cards.ts';

/**
 * DELETE /v1/accounts/{id}: logical, with its transactions; the other leg of a transfer, in an account that
 * survives, stays there as a plain entry (the money did move); a deleted
 * default passes to the oldest remaining account; linked cards move to the (new) default account.
 */
export async function deleteAccount(em: EntityManager, billing: BillingLedgerClient, ctx: CallerContext, id: string) {
  // billing is asked before the transaction and told after it (docs/architecture.md rule 9)
  const linked = await billing.linkedCards(ctx, id);
  const { planned, successor } = await em.transactional(async (tx) => {
    await lockContext(tx, ctx, 'accounts');
    // an import into the account finishes first (it holds this lock), or finds the account deleted
    await lockImportHolders(tx, ctx, [id]);
    const account = await findAccount(tx, ctx, id, true);
    if (!account) throw notFound('Conta não encontrada');
    // the answer shows the account as it was when deleted
    const view = accountView(account, (await balancesOf(tx, [account])).get(account.id) ?? 0);
    const ids = await liveTransactionsOfAccount(tx, ctx, account.id);
    const deleted = await softDelete(
      tx,
      ids.filter((row) => row.own).map((row) => row.id),
    );
    const kept = await makePlainEntries(
      tx,
      ids.filter((row) => !row.own).map((row) => row.id),
    );
    const wasDefault = account.isDefault;
    account.deletedAt = now();
    account.isDefault = false;
    await tx.flush();
    await requestConsentRevocationIfLast(tx, ctx, account.connectionId);
    if (wasDefault) {
      await makeOldestAccountDefault(tx, ctx);
    }
    const successor = await planCardsOfDeletedAccount(tx, ctx, account.id, linked);
    recordTransactionChanges(tx, ctx, 'deleted', deleted);
    recordTransactionChanges(tx, ctx, 'updated', kept);
    // the answer should the move below never happen: the outbox job moves the cards where it says
    const going = successor ? linked.map((card) => ({ id: card.id, account_id: successor })) : [];
    return { planned: keepAnswer({ ...view, creditCards: [], movedCreditCards: going }), successor };
  });
  if (!successor) return planned;
  try {
    const moved = await moveCardsInBilling(billing, ctx, id, successor);
    // the outbox's job may have moved some first: those are in the plan, the call's answer adds any linked since
    const going = planned.movedCreditCards;
    const added = moved.filter((card) => !going.some((other) => other.id === card.id));
    return { ...planned, movedCreditCards: [...going, ...added] };
  } catch {
    return planned;
  }
}
