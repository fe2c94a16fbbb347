import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextRef } from '@finance/shared/db/context-scope';
import { conflict } from '@finance/shared/errors/app-error';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { successorAccount } from '../../data-access/account-repository.ts';

export const MOVE_CARDS_JOB = 'move-cards';

/**
 * Inside the deletion's transaction, after the account is gone and the default has passed on: the account
 * its cards go to (the context's default, else the oldest remaining one). With none left, cards linked to the
 * account (asked of billing before the transaction) make the deletion 409. The move itself is recorded in the
 * outbox, so it happens in billing after the commit (docs/architecture.md rule 9) even if the direct call
 * after the commit fails.
 */
export async function planCardsOfDeletedAccount(
  em: EntityManager,
  ctx: CallerContext,
  accountId: string,
  linked: Array<{ id: string; account_id: string }>,
): Promise<string | null> {
  const successor = await successorAccount(em, ctx);
  if (!successor) {
    if (linked.length) throw conflict('Não é possível excluir a última conta: há cartões de crédito vinculados a ela');
    return null;
  }
  recordJob(
    em,
    QUEUES.cardMoves,
    MOVE_CARDS_JOB,
    { context: contextRef(ctx), from_account_id: accountId, to_account_id: successor.id },
    accountId,
  );
  return successor.id;
}

/** Moves every live card of an account to another in billing (idempotent); returns `{id, account_id}` of each. */
export async function moveCardsInBilling(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  fromAccountId: string,
  toAccountId: string,
): Promise<Array<{ id: string; account_id: string }>> {
  return billing.moveCards(ctx, fromAccountId, toAccountId);
}
