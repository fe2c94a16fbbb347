import type { CallerContext } from '@finance/shared/context/signed-context';
import type { SettleTransactionBody } from '@finance/shared/contracts/ledger/transactions';
import { conflict, invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneLive, visibleAccountIds } from '../../data-access/transaction-repository.ts';
import { settleEntry } from '../../data-access/transaction-updates.ts';
import { TRANSACTION_NOT_FOUND } from './read-transactions.ts';
import { recordTransactionChanges } from './record-changes.ts';
import { entryDateOf } from './transaction-input.ts';
import { transactionView } from './transaction-view.ts';

/** POST /v2/transactions/{id}/settle (business): an unpaid account title becomes paid on an account. */
export async function settleTransaction(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  input: SettleTransactionBody,
) {
  const paidAt = input.paid_at === undefined ? null : entryDateOf('paid_at', input.paid_at);
  return em.transactional(async (tx) => {
    const target = await findOneLive(tx, ctx, id, true);
    if (!target) throw notFound(TRANSACTION_NOT_FOUND);
    if (target.credit_card_id) throw invalidField('id', 'lançamentos de cartão não são liquidados');
    // a transfer leg is no title: settling it would split the pair's `paid` and could put both legs on one account
    if (target.type === 'TRANSFER') throw invalidField('id', 'transferências não são liquidadas');
    if (target.paid) throw conflict('Lançamento já está pago');
    const visible = await visibleAccountIds(tx, ctx, [input.account_id]);
    if (!visible.size) throw notFound('Conta não encontrada (account_id)');
    const settled = await settleEntry(tx, id, input.account_id, paidAt);
    recordTransactionChanges(tx, ctx, 'updated', [settled]);
    return keepAnswer(transactionView(settled));
  });
}
