import type { CallerContext } from '@finance/shared/context/signed-context';
import type { TransactionFields } from '@finance/shared/contracts/ledger/transactions';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { userEditedFields } from '../domain/open-banking/user-edits.ts';
import { descriptionOf, entryDateOf } from '../domain/transactions/transaction-input.ts';
import { type ChangedRow, changedColumns } from './changed-rows-sql.ts';
import { forecastPairsSql } from './reconciliation.ts';
import type { RuleRow } from './rule-repository.ts';
import { addEditedFieldsSql, SELECT_COLUMNS, selectTransactions } from './transaction-repository.ts';

/**
 * One pass of automatic reconciliation (when the context enabled it): each imported entry and the forecast that
 * are each other's best candidate (`forecastPairsSql`) are paired; the forecasts reconciled, as changed rows.
 */
export async function reconcileForecastsPass(
  em: EntityManager,
  ctx: CallerContext,
  importedIds: string[],
  windowDays: number,
): Promise<ChangedRow[]> {
  const config = contextSql(ctx);
  const pairs = forecastPairsSql(ctx, windowDays, importedIds);
  return runSql<ChangedRow>(
    em,
    `with cfg as (
       select coalesce(bool_or(auto_reconcile_enabled), false) as enabled from personal_configs where ${config.sql}
     )
     update transactions f set reconciled_at = now(), reconciled_by_user_id = ?,
       reconciled_with_transaction_id = p.transaction_id, updated_at = now()
     from cfg, (${pairs.sql}) p
     where cfg.enabled and f.id = p.forecast_id and p.forecast_rank = 1 and p.entry_rank = 1
     returning ${changedColumns('f')}`,
    [...config.params, ctx.userId, ...pairs.params],
  );
}

/** A rule's live source transaction of the context goes to the rule's category; the row when that changed it. */
export async function categorizeRuleSource(
  em: EntityManager,
  ctx: CallerContext,
  rule: RuleRow,
): Promise<ChangedRow[]> {
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set category_id = ?, subcategory_id = ?, updated_at = now()
     where t.id = ? and t.deleted_at is null and ${scope.sql}
       and (t.category_id is distinct from ? or t.subcategory_id is distinct from ?)
     returning ${changedColumns()}`,
    [
      rule.category_id,
      rule.subcategory_id,
      rule.source_transaction_id,
      ...scope.params,
      rule.category_id,
      rule.subcategory_id,
    ],
  );
}

/** An unpaid entry becomes paid on an account (`paidAt` a calendar date, else now); the row as stored. */
export async function settleEntry(em: EntityManager, id: string, accountId: string, paidAt: string | null) {
  const [settled] = await selectTransactions(
    em,
    `update transactions t set paid = true, account_id = ?, updated_at = now(),
       paid_at = coalesce(?::date::timestamp at time zone 'UTC', now())
     where t.id = ? returning ${SELECT_COLUMNS}`,
    [accountId, paidAt, id],
  );
  return settled;
}

/** Puts each transaction in its bill (`billed_at` a calendar date), in one statement. */
export async function setBills(em: EntityManager, moves: Array<{ id: string; bill_id: string; billed_at: string }>) {
  await runSql(
    em,
    `update transactions t set bill_id = m.bill_id, billed_at = m.billed_at::date
     from json_to_recordset(?::json) as m(id uuid, bill_id uuid, billed_at text) where t.id = m.id`,
    [JSON.stringify(moves)],
  );
}

/**
 * One UPDATE of many transactions: the `column = ?` assignments of `set` (their parameters in order; `s.delta`
 * is each row's day shift) on every listed id.
 */
export async function updateMembers(
  em: EntityManager,
  set: { sql: string[]; params: unknown[] },
  shifts: Array<{ id: string; delta: number }>,
): Promise<void> {
  await runSql(
    em,
    `update transactions t set ${[...set.sql, 'updated_at = now()'].join(', ')}
     from json_to_recordset(?::json) as s(id uuid, delta int) where t.id = s.id`,
    [...set.params, JSON.stringify(shifts)],
  );
}

/**
 * The SET clause of an edit of many transactions: plain column assignments for the fields sent (`?` values in
 * order; `t` the row, `s.delta` its day shift), with the holder, payment and category rules of an edit.
 */
export function editAssignments(
  input: TransactionFields,
  subcategoryParent: string | null,
): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const set = (clause: string, ...values: unknown[]) => {
    sql.push(clause);
    params.push(...values);
  };
  if (input.amount !== undefined) set('amount = ?', input.amount);
  if (input.title !== undefined) set('title = ?', input.title);
  if (input.is_expense !== undefined) set('is_expense = ?', input.is_expense);
  if (input.description !== undefined) set('description = ?', descriptionOf(input.description));
  if (input.currency !== undefined) set('currency = ?', input.currency);
  if (input.show_on_balance !== undefined) set('show_on_balance = ?', input.show_on_balance);
  // an entry has one holder: moving it to an account leaves its card and bill, to a card its account
  if (input.account_id !== undefined)
    set('account_id = ?, credit_card_id = null, bill_id = null, billed_at = null', input.account_id);
  if (input.credit_card_id !== undefined) {
    // card entries are always paid at their date (docs/decisions.md §6); the bill is set once the dates are final
    set('credit_card_id = ?, account_id = null, paid = true', input.credit_card_id);
    set("paid_at = (t.date + s.delta)::timestamp at time zone 'UTC'");
  } else if (input.paid !== undefined) {
    // paying keeps an earlier payment time; unpaying clears it; an entry staying on its card stays paid at its date
    const card = input.account_id === undefined ? 't.credit_card_id is not null' : 'false';
    set(`paid = ? or ${card}`, input.paid);
    set(
      `paid_at = case when ${card} then (t.date + s.delta)::timestamp at time zone 'UTC' when ? then coalesce(t.paid_at, now()) else null end`,
      input.paid,
    );
  } else if (input.account_id === undefined) {
    // a card entry is paid at its date (docs/decisions.md §6), also after its date moves
    set(
      "paid_at = case when t.credit_card_id is not null then (t.date + s.delta)::timestamp at time zone 'UTC' else t.paid_at end",
    );
  }
  if (input.category_id !== undefined) {
    // a subcategory sent with a null category brings its own, as on creation
    set('category_id = ?', input.category_id ?? subcategoryParent);
    // a subcategory of the old category does not follow a category change
    if (input.subcategory_id === undefined) {
      set(
        'subcategory_id = case when t.category_id is distinct from ? then null else t.subcategory_id end',
        input.category_id,
      );
    }
  }
  if (input.subcategory_id !== undefined) set('subcategory_id = ?', input.subcategory_id);
  // a subcategory sent alone brings its category
  if (input.category_id === undefined && subcategoryParent) set('category_id = ?', subcategoryParent);
  if (input.competence_date !== undefined) {
    set('competence_date = ?::date', input.competence_date && entryDateOf('competence_date', input.competence_date));
  }
  if (input.contact_id !== undefined) set('contact_id = ?', input.contact_id);
  if (input.cost_center_id !== undefined) set('cost_center_id = ?', input.cost_center_id);
  if (input.document_number !== undefined) set('document_number = ?', input.document_number);
  const edited = userEditedFields(input);
  if (edited.length) set(`user_edited_fields = ${addEditedFieldsSql('t')}`, `{${edited.join(',')}}`);
  return { sql, params };
}
