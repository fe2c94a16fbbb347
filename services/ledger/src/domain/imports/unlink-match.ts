import type { CallerContext } from '@finance/shared/context/signed-context';
import { conflict, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockImportHolders } from '../../data-access/import-keys.ts';
import { foreignKeysOf, moveKeys, unlinkPayment, unlinkTransfer } from '../../data-access/import-matches.ts';
import { findOneLive, insertReturningChanged } from '../../data-access/transaction-repository.ts';
import { blankTransaction } from '../transactions/new-transaction.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { transactionView } from '../transactions/transaction-view.ts';

const NOT_LINKED = 'Este lançamento não foi vinculado por uma importação: não há o que desfazer';

/**
 * POST /v1/transactions/{id}/unlink (docs/decisions.md §9): undoes what an import's rule linked, when the user
 * says the match is wrong. A debit taken as a bill's payment becomes a plain expense again, and the payment the bank
 * reported waits on its card as before (the bill stays paid, the bank said so); a transfer the import found (two
 * legs, or one to the holder's own account or an investment) becomes plain entries. Each stays unlinked: no later
 * import links it again. In the imports' lock of the context, so it never races one. Answers the entry.
 */
export async function unlinkMatch(em: EntityManager, ctx: CallerContext, id: string) {
  return em.transactional(async (tx) => {
    await lockImportHolders(tx, ctx, []);
    const row = await findOneLive(tx, ctx, id, true);
    if (!row) throw notFound('Transação não encontrada');
    if (row.type === 'TRANSFER' && row.external_id !== null) {
      recordTransactionChanges(
        tx,
        ctx,
        'updated',
        await unlinkTransfer(tx, ctx, row.connected_transaction_id ?? row.id),
      );
    } else if (row.is_bill_payment && row.account_id !== null) {
      const keys = await foreignKeysOf(tx, ctx, row.id);
      if (keys.length === 0) throw conflict(NOT_LINKED);
      // the bank's report of the payment, on its card again
      const [card] = keys;
      const reported = blankTransaction({
        user_id: ctx.userId,
        profile_id: ctx.profileId,
        amount: row.amount,
        date: row.date,
        title: 'Pagamento da fatura',
        is_expense: true,
        type: 'FIXED',
        credit_card_id: card.holder_id,
        bill_id: row.bill_id,
        is_bill_payment: true,
        paid: true,
        paid_at: `${row.date}T00:00:00.000Z`,
        external_id: card.key,
        connection_id: card.source.startsWith('connection:') ? card.source.slice('connection:'.length) : null,
      });
      recordTransactionChanges(tx, ctx, 'created', await insertReturningChanged(tx, [reported]));
      await moveKeys(tx, ctx, keys, row.id, reported.id);
      recordTransactionChanges(tx, ctx, 'updated', await unlinkPayment(tx, ctx, row.id));
    } else throw conflict(NOT_LINKED);
    return keepAnswer(transactionView((await findOneLive(tx, ctx, id)) as NonNullable<typeof row>));
  });
}
