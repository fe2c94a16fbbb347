import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Live card entries of a card dated on or after `from` (all when null), previous balances apart. */
export async function selectCardTransactionDates(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  from: string | null,
) {
  const scope = contextSql(ctx, 't');
  return runSql<{ id: string; date: string; bill_id: string | null }>(
    em,
    `select t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.bill_id from transactions t
     where t.credit_card_id = ? and t.deleted_at is null and not t.is_previous_balance
       and (?::date is null or t.date >= ?::date) and ${scope.sql}
     order by t.date, t.id`,
    [cardId, from, from, ...scope.params],
  );
}

/**
 * Every live purchase of the card dated inside a listed bill's period [open_date, closing_date) goes to that
 * bill (`bills`: JSON of {bill_id, open_date, closing_date}); the ids moved.
 */
export async function rebillPurchases(em: EntityManager, ctx: CallerContext, cardId: string, bills: string) {
  const scope = contextSql(ctx, 't');
  return runSql<{ id: string }>(
    em,
    `update transactions t set bill_id = b.bill_id, billed_at = b.closing_date, updated_at = now()
     from json_to_recordset(?::json) as b(bill_id uuid, open_date date, closing_date date)
     where t.credit_card_id = ? and t.deleted_at is null and not t.is_previous_balance
       and t.date >= b.open_date and t.date < b.closing_date
       and (t.bill_id is distinct from b.bill_id or t.billed_at is distinct from b.closing_date) and ${scope.sql}
     returning t.id`,
    [bills, cardId, ...scope.params],
  );
}

/** The dates (up to 5,000) of the card's live purchases from `first` on that no listed period holds. */
export async function uncoveredPurchaseDates(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  first: string,
  bills: string,
) {
  const scope = contextSql(ctx, 't');
  return runSql<{ date: string }>(
    em,
    `select distinct to_char(t.date, 'YYYY-MM-DD') as date from transactions t
     where t.credit_card_id = ? and t.deleted_at is null and not t.is_previous_balance and t.date >= ?::date
       and ${scope.sql}
       and not exists (select 1 from json_to_recordset(?::json) as b(open_date date, closing_date date)
                       where t.date >= b.open_date and t.date < b.closing_date)
     order by 1 limit 5000`,
    [cardId, first, ...scope.params, bills],
  );
}

/** Claims each rollover source bill for its new entry (pairwise); the sources not claimed before. */
export async function claimRolloverSources(em: EntityManager, sourceBillIds: string[], transactionIds: string[]) {
  return runSql<{ source_bill_id: string }>(
    em,
    `insert into bill_rollover_entries (source_bill_id, transaction_id)
     select * from unnest(?::uuid[], ?::uuid[]) on conflict do nothing returning source_bill_id`,
    [`{${sourceBillIds.join(',')}}`, `{${transactionIds.join(',')}}`],
  );
}

/** Where each source bill's previous-balance entry lives (its bill), whichever run wrote it. */
export async function placedRolloverEntries(em: EntityManager, sourceBillIds: string[]) {
  return runSql<{ source_bill_id: string; bill_id: string }>(
    em,
    `select e.source_bill_id, t.bill_id from bill_rollover_entries e join transactions t on t.id = e.transaction_id
     where e.source_bill_id = any(?::uuid[]) and t.bill_id is not null`,
    [`{${sourceBillIds.join(',')}}`],
  );
}

/** The ids of the card's live entries in the context. */
export async function liveCardTransactionIds(em: EntityManager, ctx: CallerContext, cardId: string) {
  const scope = contextSql(ctx, 't');
  return runSql<{ id: string }>(
    em,
    `select t.id from transactions t where t.credit_card_id = ? and t.deleted_at is null and ${scope.sql}`,
    [cardId, ...scope.params],
  );
}

/** The ids of the live payments of some bills in the context. */
export async function livePaymentsOfBills(em: EntityManager, ctx: CallerContext, billIds: string[]) {
  const scope = contextSql(ctx, 't');
  return runSql<{ id: string }>(
    em,
    `select t.id from transactions t
     where t.is_bill_payment and t.bill_id = any(?::uuid[]) and t.deleted_at is null and ${scope.sql}`,
    [`{${billIds.join(',')}}`, ...scope.params],
  );
}
