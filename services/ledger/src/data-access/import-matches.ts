import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportStatus } from '@finance/shared/contracts/ledger/open-banking';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangedRow, changedColumns } from './changed-rows-sql.ts';

/** Live entries of the context with one of these amounts, dated in the range, through the amount index. */
const byAmount = (alias: string) =>
  `${alias}.amount = any(cast(? as bigint[])) and ${alias}.date between cast(? as date) and cast(? as date) and ${alias}.deleted_at is null`;
const amountsParam = (amounts: number[]) => `{${[...new Set(amounts)].join(',')}}`;

/** An entry the own-money and bill-payment rules may pair (docs/decisions.md §9). */
export interface PairableRow {
  id: string;
  account_id: string | null;
  credit_card_id: string | null;
  amount: string;
  is_expense: boolean;
  date: string;
  title: string;
  bill_id: string | null;
  operation_type: string | null;
  merchant_cnpj: string | null;
}

const PAIRABLE = `t.id, t.account_id, t.credit_card_id, t.amount::text as amount, t.is_expense,
  to_char(t.date, 'YYYY-MM-DD') as date, t.title, t.bill_id, t.operation_type, t.merchant_cnpj`;

/**
 * What a bill payment the bank reports may be: a payment of one of these bills already recorded (by `pay`, or
 * reported by another source, on its account or still on its card), or an account debit that may have made it:
 * live, not a transfer, not an undone match, not a manual forecast, not a payment another reported payment
 * already took (an id of a card's on it). Neither may carry an id of this source's card yet: that would be
 * another payment of it.
 */
export async function selectPayingDebits(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  amounts: number[],
  range: { from: string; to: string },
  billIds: string[],
): Promise<PairableRow[]> {
  if (amounts.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<PairableRow>(
    em,
    `select ${PAIRABLE} from transactions t
     where ${scope.sql} and ${byAmount('t')} and t.unlinked_at is null
       and ((t.is_bill_payment and t.bill_id = any(cast(? as uuid[])))
         or (t.account_id is not null and t.is_expense and t.type <> 'TRANSFER' and not t.is_bill_payment
           and t.reconciled_at is null and (t.paid or t.external_id is not null)
           and not exists (select 1 from import_keys k where k.transaction_id = t.id and k.holder_id <> t.account_id)))
       and not exists (select 1 from import_keys k
         where k.transaction_id = t.id and k.source = ? and k.holder_id is distinct from t.account_id)`,
    [...scope.params, amountsParam(amounts), range.from, range.to, `{${billIds.join(',')}}`, source],
  );
}

/** Live entries of the context with one of these amounts, dated in the range, that also meet `condition`. */
async function selectPairable(
  em: EntityManager,
  ctx: CallerContext,
  amounts: number[],
  range: { from: string; to: string },
  condition: string,
): Promise<PairableRow[]> {
  if (amounts.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<PairableRow>(
    em,
    `select ${PAIRABLE} from transactions t where ${scope.sql} and ${byAmount('t')} and ${condition}`,
    [...scope.params, amountsParam(amounts), range.from, range.to],
  );
}

/** Bill payments the bank reported that no account debit has joined yet (held by their card). */
export const selectCardHeldPayments = (
  em: EntityManager,
  ctx: CallerContext,
  amounts: number[],
  range: { from: string; to: string },
) =>
  selectPairable(
    em,
    ctx,
    amounts,
    range,
    't.credit_card_id is not null and t.is_bill_payment and t.unlinked_at is null',
  );

/** Imported account entries that may be a leg of a transfer between the context's accounts. */
export const selectTransferLegs = (
  em: EntityManager,
  ctx: CallerContext,
  amounts: number[],
  range: { from: string; to: string },
) =>
  selectPairable(
    em,
    ctx,
    amounts,
    range,
    `t.account_id is not null and t.external_id is not null and t.type <> 'TRANSFER' and not t.is_bill_payment
     and t.unlinked_at is null and t.reconciled_at is null`,
  );

/** Account debits become the payments of the bills the bank reported paid. The rows changed. */
export async function markBillPayments(
  em: EntityManager,
  ctx: CallerContext,
  rows: Array<{ id: string; bill_id: string }>,
): Promise<ChangedRow[]> {
  if (rows.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set is_bill_payment = true, bill_id = r.bill_id, updated_at = now()
     from json_to_recordset(?::json) as r(id uuid, bill_id uuid)
     where t.id = r.id and ${scope.sql} and (not t.is_bill_payment or t.bill_id is distinct from r.bill_id)
     returning ${changedColumns()}`,
    [JSON.stringify(rows), ...scope.params],
  );
}

/** The account side of a bill payment the bank reported on the card. */
export interface PayingEntry {
  id: string;
  account_id: string;
  date: string;
  title: string;
  description: string | null;
  operation_type: string | null;
  merchant_name: string | null;
  merchant_cnpj: string | null;
  paid: boolean;
  paid_at: string | null;
}

/** Bill payments held by their card move to the account debit that made them, taking its data. The rows changed. */
export async function movePaymentsToAccounts(
  em: EntityManager,
  ctx: CallerContext,
  rows: PayingEntry[],
): Promise<ChangedRow[]> {
  if (rows.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set account_id = r.account_id, credit_card_id = null, billed_at = null, date = r.date,
       title = r.title, description = r.description, operation_type = r.operation_type,
       merchant_name = r.merchant_name, merchant_cnpj = r.merchant_cnpj, paid = t.paid or r.paid,
       paid_at = case when t.paid then t.paid_at else r.paid_at end, updated_at = now()
     from json_to_recordset(?::json) as r(id uuid, account_id uuid, date date, title text, description text,
       operation_type text, merchant_name text, merchant_cnpj text, paid boolean, paid_at timestamptz)
     where t.id = r.id and ${scope.sql} and t.credit_card_id is not null and t.is_bill_payment
     returning ${changedColumns()}`,
    [JSON.stringify(rows), ...scope.params],
  );
}

/** Stored legs of transfers the import found: each becomes a TRANSFER of its pair (outgoing first). */
export async function linkTransferLegs(
  em: EntityManager,
  ctx: CallerContext,
  legs: Array<{ id: string; outgoing_id: string; index: 0 | 1 }>,
): Promise<ChangedRow[]> {
  if (legs.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set type = 'TRANSFER', connected_transaction_id = r.outgoing_id, series_index = r.index,
       updated_at = now()
     from json_to_recordset(?::json) as r(id uuid, outgoing_id uuid, index int)
     where t.id = r.id and ${scope.sql} and t.type <> 'TRANSFER'
     returning ${changedColumns()}`,
    [JSON.stringify(legs), ...scope.params],
  );
}

/** An id of another holder on an entry (a card's, on the debit its reported payment joined). */
export interface ForeignKey {
  source: string;
  holder_id: string;
  key: string;
  status: ImportStatus;
}

/** The ids a source gave the entry for another account or card than the one holding it now. */
export async function foreignKeysOf(em: EntityManager, ctx: CallerContext, transactionId: string) {
  const scope = contextSql(ctx, 'k');
  return runSql<ForeignKey>(
    em,
    `select k.source, k.holder_id, k.key, k.status from import_keys k join transactions t on t.id = k.transaction_id
     where ${scope.sql} and k.transaction_id = ? and k.holder_id <> coalesce(t.account_id, t.credit_card_id)`,
    [...scope.params, transactionId],
  );
}

/** Ids move from one entry to another, which they now rewrite. */
export async function moveKeys(
  em: EntityManager,
  ctx: CallerContext,
  keys: ForeignKey[],
  from: string,
  to: string,
): Promise<void> {
  if (keys.length === 0) return;
  const scope = contextSql(ctx, 'k');
  await runSql(
    em,
    `update import_keys k set transaction_id = ?, owns = true
     from json_to_recordset(?::json) as r(source text, holder_id uuid, key text)
     where ${scope.sql} and k.transaction_id = ? and k.source = r.source and k.holder_id = r.holder_id and k.key = r.key`,
    [to, JSON.stringify(keys), ...scope.params, from],
  );
}

/**
 * The user undid the match of a bill payment: an imported debit stops being the bill's payment (one made with `pay`
 * stays one), and no rule links it again.
 */
export async function unlinkPayment(em: EntityManager, ctx: CallerContext, id: string): Promise<ChangedRow[]> {
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set unlinked_at = now(), updated_at = now(), is_bill_payment = t.external_id is null,
       bill_id = case when t.external_id is null then t.bill_id end
     where t.id = ? and ${scope.sql} and t.deleted_at is null and t.is_bill_payment
     returning ${changedColumns()}`,
    [id, ...scope.params],
  );
}

/** The user undid a transfer the import found: its imported legs become plain entries no rule links again. */
export async function unlinkTransfer(em: EntityManager, ctx: CallerContext, outgoingId: string): Promise<ChangedRow[]> {
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set type = 'FIXED', connected_transaction_id = null, series_index = null,
       unlinked_at = now(), updated_at = now()
     where t.connected_transaction_id = ? and t.type = 'TRANSFER' and t.external_id is not null and ${scope.sql}
       and t.deleted_at is null
     returning ${changedColumns()}`,
    [outgoingId, ...scope.params],
  );
}
