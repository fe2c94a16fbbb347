import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CreateTransferBody } from '@finance/shared/contracts/ledger/transactions';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  insertReturningRows,
  type TransactionRow,
  visibleAccountIds,
} from '../../data-access/transaction-repository.ts';
import { blankTransaction } from './new-transaction.ts';
import { recordTransactionChanges } from './record-changes.ts';
import { descriptionOf, entryDateOf } from './transaction-input.ts';
import { transactionView } from './transaction-view.ts';

/** The two legs of a transfer: an expense leaving one account, the same income entering the other. */
export function transferLegs(ctx: CallerContext, input: CreateTransferBody) {
  const common = {
    user_id: ctx.userId,
    profile_id: ctx.profileId,
    amount: input.amount,
    date: entryDateOf('date', input.date),
    title: input.title,
    description: descriptionOf(input.description),
    type: 'TRANSFER',
    paid: input.paid,
    paid_at: input.paid ? now().toISOString() : null,
  };
  const outgoing = blankTransaction({
    ...common,
    is_expense: true,
    account_id: input.sent_account_id,
    series_index: 0,
  });
  const incoming = blankTransaction({
    ...common,
    is_expense: false,
    account_id: input.received_account_id,
    series_index: 1,
  });
  outgoing.connected_transaction_id = outgoing.id;
  incoming.connected_transaction_id = outgoing.id;
  return [outgoing, incoming];
}

/** POST /v1/transactions/create-transfer: both legs in one transaction; the outgoing one answers. */
export async function createTransfer(em: EntityManager, ctx: CallerContext, input: CreateTransferBody) {
  if (input.sent_account_id.toLowerCase() === input.received_account_id.toLowerCase()) {
    throw invalidField('received_account_id', 'a conta de destino deve ser diferente da conta de origem');
  }
  const legs = transferLegs(ctx, input);
  return em.transactional(async (tx) => {
    const visible = await visibleAccountIds(tx, ctx, [input.sent_account_id, input.received_account_id]);
    if (!visible.has(input.sent_account_id)) throw notFound('Conta não encontrada (sent_account_id)');
    if (!visible.has(input.received_account_id)) throw notFound('Conta não encontrada (received_account_id)');
    const inserted = await insertReturningRows(tx, legs);
    recordTransactionChanges(tx, ctx, 'created', legs);
    return keepAnswer(transactionView(inserted.find((leg) => leg.id === legs[0].id) as TransactionRow));
  });
}
