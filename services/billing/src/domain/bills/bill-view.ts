import { type CalendarDate, toIsoMidnight } from '@finance/shared/calendar';
import type { BillTotals } from '@finance/shared/contracts/internal/ledger-for-billing';
import { iso } from '@finance/shared/db/context-scope';
import type { StoredBill } from '../../data-access/bill-repository.ts';
import { billFigures } from './bill-balance.ts';
import { billStatus } from './bill-status.ts';

/** The Bill record of the spec with docs/decisions.md §8's figures. */
export function billView(row: StoredBill, openDate: CalendarDate, totals: BillTotals | undefined, today: CalendarDate) {
  const { value, paid, balance } = billFigures(totals);
  const { status, isPending } = billStatus(
    { openDate, closingDate: row.closingDate, dueDate: row.dueDate },
    { value, paid, balance, count: totals?.count ?? 0 },
    today,
  );
  return {
    id: row.id,
    credit_card_id: row.creditCardId,
    closing_date: toIsoMidnight(row.closingDate),
    expiring_date: toIsoMidnight(row.dueDate),
    value,
    paid,
    balance,
    costs: totals?.costs ?? 0,
    status,
    isPending,
    profile_id: row.profileId ?? null,
    user_id: row.userId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export type BillView = ReturnType<typeof billView>;
