import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute } from '../../data-access/transaction-repository.ts';
import { type ChangedRow, changedColumns, recordTransactionChanges } from '../transactions/record-changes.ts';
import { PROTECTED_BANK_FIELDS } from './user-edits.ts';

/** One imported transaction with its account or card (and bill) resolved to ledger and billing ids. */
export interface ImportRow {
  external_id: string;
  account_id: string | null;
  credit_card_id: string | null;
  bill_id: string | null;
  billed_at: string | null;
  amount: number;
  date: string;
  is_expense: boolean;
  title: string;
  description: string | null;
  merchant_name: string | null;
  merchant_cnpj: string | null;
  merchant_cnae: string | null;
  operation_type: string | null;
  logo_url: string | null;
}

const FIELDS = [
  'amount',
  'date',
  'title',
  'description',
  'is_expense',
  'account_id',
  'credit_card_id',
  'bill_id',
  'billed_at',
  'logo_url',
  'merchant_cnae',
  'merchant_cnpj',
  'merchant_name',
  'operation_type',
  'paid_at',
] as const;

/** The bank's value of a field, or the stored one where the user edited that field (`user-edits.ts`). */
const incoming = (field: (typeof FIELDS)[number]) =>
  (PROTECTED_BANK_FIELDS as readonly string[]).includes(field)
    ? `case when '${field}' = any(t.user_edited_fields) then t.${field} else excluded.${field} end`
    : `excluded.${field}`;

/**
 * Transactions by (context, connection, external id) in one statement: paid at their date, with merchant
 * fields; a re-import rewrites what the bank says, except the fields the user edited (title, description),
 * and never the category or tags; unchanged and deleted rows are not touched. Returns the ids created and updated; their `transaction.changed` leaves with the commit.
 */
export async function upsertTransactions(
  em: EntityManager,
  ctx: CallerContext,
  connectionId: string,
  rows: ImportRow[],
): Promise<{ created: string[]; updated: string[] }> {
  if (rows.length === 0) return { created: [], updated: [] };
  const records = rows.map((row) => ({ ...row, id: newId(), paid_at: `${row.date}T00:00:00.000Z` }));
  const changed = await execute<ChangedRow & { created: boolean }>(
    em,
    `insert into transactions as t (id, user_id, profile_id, amount, date, title, description, is_expense, paid, paid_at,
       type, installments, currency, account_id, credit_card_id, bill_id, billed_at, logo_url, merchant_cnae,
       merchant_cnpj, merchant_name, operation_type, external_id, connection_id, created_at, updated_at)
     select r.id, ?, ?, r.amount, r.date, r.title, r.description, r.is_expense, true, r.paid_at, 'FIXED', 1, 'BRL',
       r.account_id, r.credit_card_id, r.bill_id, r.billed_at, r.logo_url, r.merchant_cnae, r.merchant_cnpj,
       r.merchant_name, r.operation_type, r.external_id, ?, now(), now()
     from jsonb_to_recordset(?::jsonb) as r(id uuid, external_id text, amount bigint, date date, title text,
       description text, is_expense boolean, paid_at timestamptz, account_id uuid, credit_card_id uuid, bill_id uuid,
       billed_at timestamptz, logo_url text, merchant_cnae text, merchant_cnpj text, merchant_name text,
       operation_type text)
     on conflict (coalesce(profile_id, user_id), connection_id, external_id) where external_id is not null do update set
       ${FIELDS.map((field) => `${field} = ${incoming(field)}`).join(', ')}, paid = true, updated_at = now()
     where t.deleted_at is null and (t.paid, ${FIELDS.map((field) => `t.${field}`).join(', ')})
       is distinct from (true, ${FIELDS.map(incoming).join(', ')})
     returning ${changedColumns()}, (xmax = 0) as created`,
    [ctx.userId, ctx.profileId, connectionId, JSON.stringify(records)],
  );
  const created = changed.filter((row) => row.created);
  const updated = changed.filter((row) => !row.created);
  recordTransactionChanges(em, ctx, 'created', created);
  recordTransactionChanges(em, ctx, 'updated', updated);
  return { created: created.map((row) => row.id), updated: updated.map((row) => row.id) };
}
