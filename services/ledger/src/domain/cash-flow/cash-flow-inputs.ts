import { addDays, type CalendarDate } from '@finance/shared/calendar';
import { DEFAULT_TIME_ZONE, todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type {
  CashFlowInputs,
  CashFlowQuery,
  CostCenterShare,
} from '@finance/shared/contracts/internal/ledger-for-insights';
import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import { notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { balancesOf } from '../../data-access/account-repository.ts';
import {
  type CashFlowAccountRow,
  cashFlowAccounts,
  openSeriesOf,
  unpaidEntries,
} from '../../data-access/cash-flow-reads.ts';
import { pendingOccurrences } from '../transactions/new-transaction.ts';

const signed = (amount: number, isExpense: boolean) => (isExpense ? -amount : amount);

/** How a movement shares out by cost center: its parts' when it is split, else its own. */
function costCenters(row: {
  amount: string;
  is_expense: boolean;
  cost_center_id: string | null;
  splits: SplitPart[] | null;
}): CostCenterShare[] {
  if (row.splits?.length) {
    return row.splits.map((part) => ({
      cost_center_id: part.cost_center_id,
      amount: signed(part.amount, row.is_expense),
    }));
  }
  return [{ cost_center_id: row.cost_center_id, amount: signed(Number(row.amount), row.is_expense) }];
}

/**
 * What the ledger knows ahead of a forecast (`docs/decisions.md` §10, cash flow): the context's today (its zone's),
 * the last day read (`end_date`, or `days` after today), the alert threshold, each live account's balance now (as
 * the accounts show it), whether it counts in the total, the unpaid account entries dated up to that day and the
 * occurrences of each open recurrence its horizon has not written yet (from its next index, up to its end), signed.
 * Card occurrences come with their card: their bills are billing's to place.
 */
export async function cashFlowInputs(
  em: EntityManager,
  ctx: CallerContext,
  query: CashFlowQuery,
): Promise<CashFlowInputs> {
  const found = await cashFlowAccounts(em, ctx, query.account_id);
  const rows = found.filter((row): row is CashFlowAccountRow & { id: string } => row.id !== null);
  if (query.account_id && rows.length === 0) throw notFound('Conta não encontrada (account_id)');
  const today = todayIn(found[0]?.time_zone ?? DEFAULT_TIME_ZONE);
  const end = query.end_date ?? addDays(today, query.days ?? 0);
  const balances = await balancesOf(
    em,
    rows.map((row) => ({
      id: row.id,
      bankBalance: row.bank_balance === null ? null : Number(row.bank_balance),
      initialBalance: Number(row.initial_balance),
    })),
  );
  const entries = await unpaidEntries(em, ctx, end, query.account_id);
  const series = await openSeriesOf(em, ctx);
  const threshold = Number(found[0]?.cash_flow_threshold ?? 0);
  return {
    today,
    end_date: end,
    threshold,
    accounts: rows.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      is_default: row.is_default,
      counts_in_total: row.counts_in_total,
      balance: balances.get(row.id) ?? 0,
    })),
    entries: entries.map((row) => ({
      transaction_id: row.id,
      account_id: row.account_id,
      date: row.date,
      amount: signed(Number(row.amount), row.is_expense),
      title: row.title,
      type: row.type,
      cost_centers: costCenters(row),
    })),
    occurrences: series
      .filter((row) => !query.account_id || row.account_id === query.account_id || row.credit_card_id !== null)
      .flatMap((row) => {
        const last: CalendarDate = row.ends_before && row.ends_before <= end ? addDays(row.ends_before, -1) : end;
        return pendingOccurrences(row.anchor, row.frequency, last, row.next_index).map((date) => ({
          series_id: row.series_id,
          account_id: row.account_id,
          credit_card_id: row.credit_card_id,
          date,
          amount: signed(Number(row.amount), row.is_expense),
          title: row.title,
          cost_centers: costCenters(row),
        }));
      }),
  };
}
