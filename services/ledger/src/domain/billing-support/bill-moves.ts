import type {
  BillPaymentInput,
  CardCalendarInput,
  PreviousBalanceEntry,
} from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextSql } from '@finance/shared/db/context-scope';
import { notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { advanceCardCalendar, lockCardCalendars } from '../../data-access/card-calendar-repository.ts';
import {
  execute,
  insertTransactions,
  loadByIds,
  makePlainEntries,
  softDelete,
  visibleAccountIds,
} from '../../data-access/transaction-repository.ts';
import { blankTransaction } from '../transactions/new-transaction.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { transactionView } from '../transactions/transaction-view.ts';

/** Live card entries of a card dated on or after `from` (all when null), previous balances apart. */
export async function cardTransactionDates(em: EntityManager, ctx: CallerContext, cardId: string, from: string | null) {
  const scope = contextSql(ctx, 't');
  return execute<{ id: string; date: string; bill_id: string | null }>(
    em,
    `select t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.bill_id from transactions t
     where t.credit_card_id = ? and t.deleted_at is null and not t.is_previous_balance
       and (?::date is null or t.date >= ?::date) and ${scope.sql}
     order by t.date, t.id`,
    [cardId, from, from, ...scope.params],
  );
}

/**
 * Applies a card's bill calendar from billing after a closing-day change (docs/architecture.md rule 9):
 * every live purchase of the card dated inside a listed bill's period [open_date, closing_date) goes to that
 * bill, in one statement. The card's calendar row is locked `FOR UPDATE`, so writers that billed under the
 * older version wait, then re-bill; an older version than the one applied is a no-op (a retry or a late job).
 * Purchases outside every listed period (closed bills, history) are not touched.
 */
export async function rebillCard(em: EntityManager, ctx: CallerContext, input: CardCalendarInput) {
  return em.transactional(async (tx) => {
    const stored = (await lockCardCalendars(tx, [input.credit_card_id], 'update')).get(input.credit_card_id) ?? 0;
    if (stored > input.calendar_version) return { moved: 0, uncovered: [], applied: false };
    await advanceCardCalendar(tx, input.credit_card_id, input.calendar_version);
    if (input.bills.length === 0) return { moved: 0, uncovered: [], applied: true };
    const scope = contextSql(ctx, 't');
    const bills = JSON.stringify(input.bills);
    const rows = await execute<{ id: string }>(
      tx,
      `update transactions t set bill_id = b.bill_id, billed_at = b.closing_date, updated_at = now()
       from jsonb_to_recordset(?::jsonb) as b(bill_id uuid, open_date date, closing_date date)
       where t.credit_card_id = ? and t.deleted_at is null and not t.is_previous_balance
         and t.date >= b.open_date and t.date < b.closing_date
         and (t.bill_id is distinct from b.bill_id or t.billed_at is distinct from b.closing_date) and ${scope.sql}
       returning t.id`,
      [bills, input.credit_card_id, ...scope.params],
    );
    // purchases from the first period on whose bill billing has not stored yet: billing creates it and asks again
    const first = input.bills.map((bill) => bill.open_date).sort()[0];
    const uncovered = await execute<{ date: string }>(
      tx,
      `select distinct to_char(t.date, 'YYYY-MM-DD') as date from transactions t
       where t.credit_card_id = ? and t.deleted_at is null and not t.is_previous_balance and t.date >= ?::date
         and ${scope.sql}
         and not exists (select 1 from jsonb_to_recordset(?::jsonb) as b(open_date date, closing_date date)
                         where t.date >= b.open_date and t.date < b.closing_date)
       order by 1 limit 5000`,
      [input.credit_card_id, first, ...scope.params, bills],
    );
    return { moved: rows.length, uncovered: uncovered.map((row) => row.date), applied: true };
  });
}

/**
 * Adds the previous-balance entries of a rollover; the key table makes a second run for the same source
 * bill a no-op, all in one transaction.
 */
export async function addPreviousBalances(em: EntityManager, ctx: CallerContext, entries: PreviousBalanceEntry[]) {
  return em.transactional(async (tx) => {
    const rows = entries.map((entry) =>
      blankTransaction({
        user_id: ctx.userId,
        profile_id: ctx.profileId,
        amount: entry.amount,
        date: entry.date,
        title: entry.title,
        is_expense: entry.is_expense ?? true,
        type: 'FIXED',
        paid: true,
        paid_at: new Date().toISOString(),
        credit_card_id: entry.credit_card_id,
        bill_id: entry.bill_id,
        billed_at: entry.billed_at,
        is_previous_balance: true,
      }),
    );
    const claimed = await execute<{ source_bill_id: string }>(
      tx,
      `insert into bill_rollover_entries (source_bill_id, transaction_id)
       select * from unnest(?::uuid[], ?::uuid[]) on conflict do nothing returning source_bill_id`,
      [`{${entries.map((e) => e.source_bill_id).join(',')}}`, `{${rows.map((r) => r.id).join(',')}}`],
    );
    const fresh = new Set(claimed.map((row) => row.source_bill_id));
    const toInsert = rows.filter((_, index) => fresh.has(entries[index].source_bill_id));
    await insertTransactions(tx, toInsert);
    recordTransactionChanges(tx, ctx, 'created', toInsert);
    // where each source's entry lives, written now or by an earlier run (billing records it as the carry)
    const placed = await execute<{ source_bill_id: string; bill_id: string }>(
      tx,
      `select e.source_bill_id, t.bill_id from bill_rollover_entries e join transactions t on t.id = e.transaction_id
       where e.source_bill_id = any(?::uuid[]) and t.bill_id is not null`,
      [`{${entries.map((e) => e.source_bill_id).join(',')}}`],
    );
    return { created: toInsert.length, placed };
  });
}

/**
 * The paid account expense that pays a bill (`is_bill_payment`); the account must be the context's. Its id
 * is billing's: a repeated call (a retry after a lost answer) returns the payment already written.
 */
export async function createBillPayment(em: EntityManager, ctx: CallerContext, input: BillPaymentInput) {
  return em.transactional(async (tx) => {
    const [existing] = input.payment_id ? await loadByIds(tx, [input.payment_id]) : [];
    if (existing) {
      if (!existing.is_bill_payment || existing.bill_id !== input.bill_id) throw notFound('Pagamento não encontrado');
      return transactionView(existing);
    }
    if (!(await visibleAccountIds(tx, ctx, [input.account_id])).size) throw notFound('Conta não encontrada');
    const row = blankTransaction({
      id: input.payment_id ?? newId(),
      user_id: ctx.userId,
      profile_id: ctx.profileId,
      amount: input.amount,
      date: input.date,
      title: input.title,
      is_expense: true,
      type: 'FIXED',
      paid: true,
      paid_at: new Date().toISOString(),
      account_id: input.account_id,
      bill_id: input.bill_id,
      is_bill_payment: true,
    });
    await insertTransactions(tx, [row]);
    recordTransactionChanges(tx, ctx, 'created', [row]);
    const [stored] = await loadByIds(tx, [row.id]);
    return transactionView(stored);
  });
}

/**
 * A deleted card takes its entries with it (they vanish from every read and total). The payments of its bills
 * stay in their accounts as plain expenses: that money left the bank.
 */
export async function deleteCardTransactions(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  billIds: string[],
  calendarVersion = 0,
) {
  return em.transactional(async (tx) => {
    // a purchase billed before the deletion and written after it is refused (its calendar version is older)
    await lockCardCalendars(tx, [cardId], 'update');
    await advanceCardCalendar(tx, cardId, calendarVersion);
    const scope = contextSql(ctx, 't');
    const ids = await execute<{ id: string }>(
      tx,
      `select t.id from transactions t where t.credit_card_id = ? and t.deleted_at is null and ${scope.sql}`,
      [cardId, ...scope.params],
    );
    const deleted = await softDelete(
      tx,
      ids.map((row) => row.id),
    );
    const payments = await execute<{ id: string }>(
      tx,
      `select t.id from transactions t
       where t.is_bill_payment and t.bill_id = any(?::uuid[]) and t.deleted_at is null and ${scope.sql}`,
      [`{${billIds.join(',')}}`, ...scope.params],
    );
    const kept = await makePlainEntries(
      tx,
      payments.map((row) => row.id),
    );
    recordTransactionChanges(tx, ctx, 'deleted', deleted);
    recordTransactionChanges(tx, ctx, 'updated', kept);
    return { deleted: deleted.length };
  });
}
