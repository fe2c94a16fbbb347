import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAssignment } from '@finance/shared/contracts/internal/billing-for-ledger';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ImportKey, selectSeriesHeads } from '../../data-access/import-keys.ts';
import type { NewTransaction } from '../../data-access/transaction-repository.ts';
import { blankTransaction } from '../transactions/new-transaction.ts';
import type { ImportSource, PipelineEntry } from './import-entry.ts';

/** The bills billing assigned to an import's card entries, and the day each entry is placed by. */
export interface BillPlan {
  bills: Map<string, BillAssignment>;
  dateOf: (entry: PipelineEntry) => string;
}

const SERIES_PREFIX = 'series:';

export const holderOf = (entry: PipelineEntry) => (entry.account_id ?? entry.credit_card_id) as string;
export const billKeyOf = (cardId: string, date: string, byDue: boolean) => `${cardId}:${byDue ? 'due:' : ''}${date}`;
export const paidAtOf = (entry: PipelineEntry) => (entry.status === 'BOOKED' ? `${entry.date}T00:00:00.000Z` : null);

function billOf(plan: BillPlan, entry: PipelineEntry) {
  if (!entry.credit_card_id) return { bill_id: null, billed_at: null };
  const bill = entry.bill_due_date
    ? plan.bills.get(billKeyOf(entry.credit_card_id, entry.bill_due_date, true))
    : plan.bills.get(billKeyOf(entry.credit_card_id, plan.dateOf(entry), false));
  return { bill_id: bill?.bill_id ?? null, billed_at: bill?.billed_at ?? null };
}

/** The bank's side of an entry as the row's columns. */
export function bankFields(entry: PipelineEntry, plan: BillPlan) {
  return {
    amount: entry.amount,
    date: entry.date,
    title: entry.title,
    description: entry.description,
    is_expense: entry.is_expense,
    account_id: entry.account_id,
    credit_card_id: entry.credit_card_id,
    ...billOf(plan, entry),
    logo_url: entry.logo_url,
    merchant_cnae: entry.merchant_cnae,
    merchant_cnpj: entry.merchant_cnpj,
    merchant_name: entry.merchant_name,
    operation_type: entry.operation_type,
    original_amount: entry.original_amount,
    original_currency: entry.original_currency,
    paid: entry.status === 'BOOKED',
    paid_at: paidAtOf(entry),
  };
}

/**
 * New rows for entries nothing matched (in their order). Installments of one purchase join one PARCELLED series:
 * the member the source first brought is its head (`connected_transaction_id`), found again by the bank's series
 * key, so installments arriving in later imports join it; `series_index` is the installment's number − 1.
 */
export async function entryRows(
  em: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  entries: PipelineEntry[],
  plan: BillPlan,
): Promise<{ rows: NewTransaction[]; seriesHeads: ImportKey[] }> {
  const seriesKeys = [
    ...new Set(entries.flatMap((e) => (e.installment ? [SERIES_PREFIX + e.installment.series_key] : []))),
  ];
  const heads = await selectSeriesHeads(em, ctx, source.namespace, seriesKeys);
  const seriesHeads: ImportKey[] = [];
  const rows = entries.map((entry) =>
    blankTransaction({
      user_id: ctx.userId,
      profile_id: ctx.profileId,
      ...bankFields(entry, plan),
      external_id: entry.key,
      connection_id: source.connectionId,
      type: 'FIXED',
    }),
  );
  // the lowest installment of a series new to the source heads it
  const order = entries
    .map((_, index) => index)
    .sort((a, b) => (entries[a].installment?.number ?? 0) - (entries[b].installment?.number ?? 0));
  for (const index of order) {
    const installment = entries[index].installment;
    if (!installment) continue;
    const seriesKey = SERIES_PREFIX + installment.series_key;
    let head = heads.get(seriesKey);
    if (!head) {
      head = rows[index].id;
      heads.set(seriesKey, head);
      seriesHeads.push({
        holder_id: holderOf(entries[index]),
        key: seriesKey,
        transaction_id: head,
        status: 'BOOKED',
        owns: true,
      });
    }
    Object.assign(rows[index], {
      type: 'PARCELLED',
      installments: installment.total,
      installment_number: installment.number,
      series_index: installment.number - 1,
      connected_transaction_id: head,
    } satisfies Partial<NewTransaction>);
  }
  return { rows, seriesHeads };
}
