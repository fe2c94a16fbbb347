import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportStatus } from '@finance/shared/contracts/ledger/open-banking';
import { contextKey, contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PROTECTED_BANK_FIELDS } from '../domain/open-banking/user-edits.ts';
import { type ChangedRow, changedColumns } from './changed-rows-sql.ts';

/** A list parameter given as JSON text (ids and keys may hold any character): `x = any(${inJson('text')})`. */
const inJson = (type: 'text' | 'uuid') => `array(select v::${type} from json_array_elements_text(?::json) as v)`;

/**
 * Serializes the imports of a context (its bill payments and transfers pair entries of any of its accounts and
 * cards), then holds each account and card imported into until the transaction ends, in one order, so two imports
 * of one file, or a file racing a connection's sync, see each other's entries.
 */
export async function lockImportHolders(em: EntityManager, ctx: CallerContext, holderIds: string[]): Promise<void> {
  await runSql(em, 'select pg_advisory_xact_lock(hashtext(?))', [`import-context:${contextKey(ctx)}`]);
  for (const id of [...new Set(holderIds)].sort()) {
    await runSql(em, 'select pg_advisory_xact_lock(hashtext(?))', [`import:${id}`]);
  }
}

/** A stored entry one of the arriving (holder, id) pairs names, with the content the source-id rule compares. */
export interface KnownEntryRow {
  key: string;
  holder_id: string;
  transaction_id: string;
  status: ImportStatus;
  /** This key's data rewrites the entry (it was the key's holder's and source's first). */
  owns: boolean;
  deleted: boolean;
  paid: boolean;
  amount: string;
  is_expense: boolean;
  date: string;
  /** The entry's account or card now (a bill payment may have moved to the account that paid it). */
  row_holder: string;
}

/**
 * The entries these (holder, id) pairs of the source name, deleted ones included (a user's deletion is kept): one
 * probe of the key index per pair (a lateral subquery: with a join the planner hashed every key of the source, and a
 * 60,000-entry file's batches grew from 4 ms to 120 ms each as its keys piled up).
 */
export async function selectKnownEntries(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  wanted: Array<{ holder: string; key: string }>,
): Promise<KnownEntryRow[]> {
  if (wanted.length === 0) return [];
  const scope = contextSql(ctx, 'k');
  return runSql<KnownEntryRow>(
    em,
    `select k.key, k.holder_id, k.transaction_id, k.status, k.owns, t.deleted_at is not null as deleted, t.paid,
       t.amount::text as amount, t.is_expense, to_char(t.date, 'YYYY-MM-DD') as date,
       coalesce(t.account_id, t.credit_card_id) as row_holder
     from json_to_recordset(?::json) as wanted(holder uuid, key text)
       cross join lateral (
         select * from import_keys k
          where ${scope.sql} and k.source = ? and k.holder_id = wanted.holder and k.key = wanted.key offset 0
       ) k
       join transactions t on t.id = k.transaction_id`,
    [JSON.stringify(wanted), ...scope.params, source],
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

/** An id a source gave an entry of a holder; `owns`: the entry is this key's (its data rewrites it). */
export interface ImportKey {
  holder_id: string;
  key: string;
  transaction_id: string;
  status: ImportStatus;
  owns: boolean;
}

/** Records ids of a source for entries (a new entry, or one another source or state brought); a known one is kept. */
export async function insertImportKeys(em: EntityManager, ctx: CallerContext, source: string, keys: ImportKey[]) {
  if (keys.length === 0) return;
  await runSql(
    em,
    `insert into import_keys (user_id, profile_id, source, holder_id, key, transaction_id, status, owns)
     select ?, ?, ?, r.holder_id, r.key, r.transaction_id, r.status, r.owns
     from json_to_recordset(?::json) as r(holder_id uuid, key text, transaction_id uuid, status text, owns boolean)
     on conflict (context_id, source, holder_id, key, transaction_id) do nothing`,
    [ctx.userId, ctx.profileId, source, JSON.stringify(keys)],
  );
}

/** Keys of the source now say their entries were effected (a key never goes back from BOOKED). */
export async function markKeysBooked(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  keys: Array<{ holder_id: string; key: string; transaction_id: string }>,
) {
  if (keys.length === 0) return;
  const scope = contextSql(ctx, 'k');
  await runSql(
    em,
    `update import_keys k set status = 'BOOKED'
     from json_to_recordset(?::json) as r(holder_id uuid, key text, transaction_id uuid)
     where ${scope.sql} and k.source = ? and k.holder_id = r.holder_id and k.key = r.key
       and k.transaction_id = r.transaction_id and k.status <> 'BOOKED'`,
    [JSON.stringify(keys), ...scope.params, source],
  );
}

/**
 * The source's entries still pending or scheduled (no effected id of theirs) on days of a holder it read whole,
 * whose ids did not arrive: the bank dropped them, so they are removed (logically). The rows removed.
 */
export async function removeUnlisted(
  em: EntityManager,
  ctx: CallerContext,
  source: string,
  listed: Array<{ holder_id: string; from: string; to: string }>,
  arrived: Array<{ holder_id: string; key: string }>,
) {
  if (listed.length === 0) return [];
  const scope = contextSql(ctx, 'k');
  return runSql<ChangedRow>(
    em,
    `update transactions t set deleted_at = now(), updated_at = now()
     from import_keys k, json_to_recordset(?::json) as w(holder_id uuid, "from" date, "to" date)
     where ${scope.sql} and k.source = ? and k.status <> 'BOOKED' and k.holder_id = w.holder_id
       and t.id = k.transaction_id and t.deleted_at is null and not t.paid and t.date between w."from" and w."to"
       and not exists (select 1 from import_keys b where b.transaction_id = t.id and b.status = 'BOOKED')
       and not exists (select 1 from json_to_recordset(?::json) as a(holder_id uuid, key text)
         where a.holder_id = k.holder_id and a.key = k.key)
     returning ${changedColumns()}`,
    [JSON.stringify(listed), ...scope.params, source, JSON.stringify(arrived)],
  );
}

/** The first member of each installment series of the source, by the bank's series key (on the card). */
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
const incoming = (field: (typeof BANK_FIELDS)[number]) => {
  if ((PROTECTED_BANK_FIELDS as readonly string[]).includes(field))
    return `case when '${field}' = any(t.user_edited_fields) then t.${field} else r.${field} end`;
  // a debit that paid a bill keeps its bill: the account's bank knows nothing of it
  if (field === 'bill_id' || field === 'billed_at')
    return `case when t.is_bill_payment then t.${field} else r.${field} end`;
  return `r.${field}`;
};

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
     from json_to_recordset(?::json) as r(id uuid, amount bigint, date date, title text, description text,
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
     from json_to_recordset(?::json) as r(id uuid, paid boolean, paid_at timestamptz, original_amount numeric,
       original_currency text)
     where t.id = r.id and ${scope.sql}
       and ((r.paid and not t.paid) or (t.original_amount is null and r.original_amount is not null))
     returning ${changedColumns()}`,
    [JSON.stringify(rows), ...scope.params],
  );
}
