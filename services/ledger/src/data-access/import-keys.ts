import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportStatus } from '@finance/shared/contracts/ledger/open-banking';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PROTECTED_BANK_FIELDS } from '../domain/open-banking/user-edits.ts';
import { type ChangedRow, changedColumns } from './changed-rows-sql.ts';

/** A list parameter given as JSON text (ids and keys may hold any character): `x = any(${inJson('text')})`. */
const inJson = (type: 'text' | 'uuid') => `array(select v::${type} from jsonb_array_elements_text(?::jsonb) as v)`;

/**
 * Serializes imports into the same accounts and cards (whatever their source) until the transaction ends, in
 * one order, so two imports of one file, or a file racing a connection's sync, see each other's entries.
 */
export async function lockImportHolders(em: EntityManager, holderIds: string[]): Promise<void> {
  for (const id of [...new Set(holderIds)].sort()) {
    await runSql(em, 'select pg_advisory_xact_lock(hashtext(?))', [`import:${id}`]);
  }
}

/** An entry a source's id already names. */
export interface KeyedEntry {
  key: string;
  transaction_id: string;
  status: ImportStatus;
  deleted: boolean;
  paid: boolean;
}

/**
 * The entries these ids of the source name, deleted ones included (a user's deletion is kept): one lookup of the
 * key index per id, the context in the join so the index's lead is there (without it a freshly filled table's
 * missing statistics led PostgreSQL to rescan it per id: 14 s for 10,000 ids).
 */
export async function selectKeyedEntries(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  keys: string[],
): Promise<KeyedEntry[]> {
  if (keys.length === 0) return [];
  const scope = contextSql(ctx, 'k');
  return runSql<KeyedEntry>(
    em,
    `select k.key, k.transaction_id, k.status, t.deleted_at is not null as deleted, t.paid
     from jsonb_array_elements_text(?::jsonb) as wanted(key)
       join import_keys k on ${scope.sql} and k.source = ? and k.key = wanted.key
       join transactions t on t.id = k.transaction_id`,
    [JSON.stringify(keys), ...scope.params, source],
  );
}

/** A live imported entry the matching rule may pair an arriving one with (docs/decisions.md §9). */
export interface CandidateRow {
  id: string;
  holder: string;
  amount: string;
  is_expense: boolean;
  date: string;
  paid: boolean;
  installment_number: number | null;
  source_keys: 'none' | 'unbooked' | 'booked';
}

/**
 * Live imported entries of these accounts or cards dated in [from, to], with what `source` knows of each: no id,
 * ids of its pending or forecast state only, or an id of its effected state.
 */
export async function selectMatchCandidates(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  holderIds: string[],
  range: { from: string; to: string },
): Promise<CandidateRow[]> {
  if (holderIds.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<CandidateRow>(
    em,
    `select t.id, coalesce(t.account_id, t.credit_card_id) as holder, t.amount::text as amount, t.is_expense,
       to_char(t.date, 'YYYY-MM-DD') as date, t.paid, t.installment_number,
       case when not exists (select 1 from import_keys k where k.transaction_id = t.id and k.source = ?) then 'none'
            when exists (select 1 from import_keys k where k.transaction_id = t.id and k.source = ? and k.status = 'BOOKED')
              then 'booked'
            else 'unbooked' end as source_keys
     from transactions t
     where ${scope.sql} and t.deleted_at is null and t.external_id is not null
       and (t.account_id = any(${inJson('uuid')}) or t.credit_card_id = any(${inJson('uuid')}))
       and t.date between ? and ?`,
    [source, source, ...scope.params, JSON.stringify(holderIds), JSON.stringify(holderIds), range.from, range.to],
  );
}

/** Records ids of a source for entries (a new entry, or one another source or state brought); a known id is kept. */
export async function insertImportKeys(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  keys: Array<{ key: string; transaction_id: string; status: ImportStatus }>,
): Promise<void> {
  if (keys.length === 0) return;
  await runSql(
    em,
    `insert into import_keys (user_id, profile_id, source, key, transaction_id, status)
     select ?, ?, ?, r.key, r.transaction_id, r.status
     from jsonb_to_recordset(?::jsonb) as r(key text, transaction_id uuid, status text)
     on conflict (context_id, source, key) do nothing`,
    [ctx.userId, ctx.profileId, source, JSON.stringify(keys)],
  );
}

/** A key of the source now says the entry was effected (a key never goes back from BOOKED). */
export async function markKeysBooked(em: EntityManager, ctx: CallerContext, source: string, keys: string[]) {
  if (keys.length === 0) return;
  const scope = contextSql(ctx);
  await runSql(
    em,
    `update import_keys set status = 'BOOKED'
     where ${scope.sql} and source = ? and key = any(${inJson('text')}) and status <> 'BOOKED'`,
    [...scope.params, source, JSON.stringify(keys)],
  );
}

/** The first member of each installment series of the source, by the bank's series key. */
export async function selectSeriesHeads(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  seriesKeys: string[],
): Promise<Map<string, string>> {
  if (seriesKeys.length === 0) return new Map();
  const scope = contextSql(ctx);
  const rows = await runSql<{ key: string; transaction_id: string }>(
    em,
    `select key, transaction_id from import_keys where ${scope.sql} and source = ? and key = any(${inJson('text')})`,
    [...scope.params, source, JSON.stringify(seriesKeys)],
  );
  return new Map(rows.map((row) => [row.key, row.transaction_id]));
}

/** The bank's data for an entry its id names again. */
export interface BankUpdate {
  id: string;
  amount: number;
  date: string;
  title: string;
  description: string | null;
  is_expense: boolean;
  account_id: string | null;
  credit_card_id: string | null;
  bill_id: string | null;
  billed_at: string | null;
  logo_url: string | null;
  merchant_cnae: string | null;
  merchant_cnpj: string | null;
  merchant_name: string | null;
  operation_type: string | null;
  original_amount: string | null;
  original_currency: string | null;
  paid: boolean;
  paid_at: string | null;
}

const BANK_FIELDS = [
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
  'original_amount',
  'original_currency',
] as const;

/** The bank's value of a field, or the stored one where the user edited that field (`user-edits.ts`). */
const incoming = (field: (typeof BANK_FIELDS)[number]) =>
  (PROTECTED_BANK_FIELDS as readonly string[]).includes(field)
    ? `case when '${field}' = any(t.user_edited_fields) then t.${field} else r.${field} end`
    : `r.${field}`;

/**
 * Entries a source's id names again take the bank's data in one statement, except the fields the user edited;
 * an effected entry becomes paid at its date and never goes back to unpaid. Unchanged and deleted rows are not
 * touched. The rows changed.
 */
export async function updateFromBank(em: EntityManager, ctx: CallerContext, rows: BankUpdate[]) {
  if (rows.length === 0) return [];
  const scope = contextSql(ctx, 't');
  const paid = '(t.paid or r.paid)';
  const paidAt = `case when t.paid then t.paid_at when r.paid then r.paid_at else null end`;
  return runSql<ChangedRow>(
    em,
    `update transactions t set ${BANK_FIELDS.map((field) => `${field} = ${incoming(field)}`).join(', ')},
       paid = ${paid}, paid_at = ${paidAt}, updated_at = now()
     from jsonb_to_recordset(?::jsonb) as r(id uuid, amount bigint, date date, title text, description text,
       is_expense boolean, account_id uuid, credit_card_id uuid, bill_id uuid, billed_at timestamptz, logo_url text,
       merchant_cnae text, merchant_cnpj text, merchant_name text, operation_type text, original_amount numeric,
       original_currency text, paid boolean, paid_at timestamptz)
     where t.id = r.id and ${scope.sql} and t.deleted_at is null
       and (t.paid, t.paid_at, ${BANK_FIELDS.map((field) => `t.${field}`).join(', ')})
         is distinct from (${paid}, ${paidAt}, ${BANK_FIELDS.map(incoming).join(', ')})
     returning ${changedColumns()}`,
    [JSON.stringify(rows), ...scope.params],
  );
}

/**
 * Entries another source (or state) brought, joined by the matching rule: an effected arrival makes an unpaid one
 * paid at its own date, and a purchase in another currency keeps its original amount; nothing else changes (the
 * first source's data stays). The rows changed.
 */
export async function completeMatchedEntries(
  em: EntityManager,
  ctx: CallerContext,
  rows: Array<{
    id: string;
    paid: boolean;
    paid_at: string | null;
    original_amount: string | null;
    original_currency: string | null;
  }>,
) {
  if (rows.length === 0) return [];
  const scope = contextSql(ctx, 't');
  return runSql<ChangedRow>(
    em,
    `update transactions t set paid = t.paid or r.paid,
       paid_at = case when t.paid then t.paid_at when r.paid then r.paid_at else null end,
       original_amount = coalesce(t.original_amount, r.original_amount),
       original_currency = case when t.original_amount is null then r.original_currency else t.original_currency end,
       updated_at = now()
     from jsonb_to_recordset(?::jsonb) as r(id uuid, paid boolean, paid_at timestamptz, original_amount numeric,
       original_currency text)
     where t.id = r.id and ${scope.sql}
       and ((r.paid and not t.paid) or (t.original_amount is null and r.original_amount is not null))
     returning ${changedColumns()}`,
    [JSON.stringify(rows), ...scope.params],
  );
}
