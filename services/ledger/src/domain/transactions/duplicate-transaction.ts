import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneLive, insertReturningRows } from '../../data-access/transaction-repository.ts';
import { blankTransaction } from './new-transaction.ts';
import { TRANSACTION_NOT_FOUND } from './read-transactions.ts';
import { recordTransactionChanges } from './record-changes.ts';
import { transactionView } from './transaction-view.ts';

/** POST /v1/transactions/{id}/duplicate: a paid single copy, without tags or series link. */
export async function duplicateTransaction(em: EntityManager, ctx: CallerContext, id: string) {
  return em.transactional(async (tx) => {
    const source = await findOneLive(tx, ctx, id);
    if (!source) throw notFound(TRANSACTION_NOT_FOUND);
    const onCard = source.credit_card_id !== null;
    const copy = blankTransaction({
      user_id: ctx.userId,
      profile_id: ctx.profileId,
      amount: source.amount,
      date: source.date,
      title: source.title,
      description: source.description,
      is_expense: source.is_expense,
      type: 'FIXED',
      paid: true,
      // a card entry is paid at its date (docs/decisions.md §6); an account one now
      paid_at: onCard ? `${source.date}T00:00:00.000Z` : now().toISOString(),
      currency: source.currency,
      account_id: source.account_id,
      credit_card_id: source.credit_card_id,
      // same date, same bill; an account copy (say of a bill payment) is a plain entry, in no bill
      bill_id: onCard ? source.bill_id : null,
      billed_at: onCard && source.billed_at ? new Date(source.billed_at).toISOString() : null,
      category_id: source.category_id,
      subcategory_id: source.subcategory_id,
      competence_date: source.competence_date,
      contact_id: source.contact_id,
      cost_center_id: source.cost_center_id,
      document_number: source.document_number,
      show_on_balance: source.show_on_balance,
    });
    const [inserted] = await insertReturningRows(tx, [copy]);
    recordTransactionChanges(tx, ctx, 'created', [copy]);
    return keepAnswer(transactionView(inserted));
  });
}
