import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { upsertImportedTransactions } from '../../data-access/open-banking-imports.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';

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
  const changed = await upsertImportedTransactions(em, ctx, connectionId, records);
  const created = changed.filter((row) => row.created);
  const updated = changed.filter((row) => !row.created);
  recordTransactionChanges(em, ctx, 'created', created);
  recordTransactionChanges(em, ctx, 'updated', updated);
  return { created: created.map((row) => row.id), updated: updated.map((row) => row.id) };
}
