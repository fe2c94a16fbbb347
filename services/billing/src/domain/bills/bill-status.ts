import { type CalendarDate, compare } from '@finance/shared/calendar';
import type { BillStatus } from '@finance/shared/contracts/billing/bills';

export interface BillFigures {
  value: number;
  paid: number;
  balance: number;
  count: number;
}

/** Status and isPending as PRODUCT.md §8 defines them, for `today` (UTC). */
export function billStatus(
  dates: { openDate: CalendarDate; closingDate: CalendarDate; dueDate: CalendarDate },
  figures: BillFigures,
  today: CalendarDate,
): { status: BillStatus; isPending: boolean } {
  const closed = compare(today, dates.closingDate) >= 0;
  const isPending = closed && figures.balance > 0;
  if ((closed || figures.count > 0) && figures.balance <= 0) return { status: 'PAID', isPending };
  if (compare(today, dates.openDate) < 0) return { status: 'FUTURE', isPending };
  if (!closed) return { status: 'OPEN', isPending };
  if (compare(today, dates.dueDate) > 0) return { status: 'OVERDUE', isPending };
  return { status: 'CLOSED', isPending };
}
