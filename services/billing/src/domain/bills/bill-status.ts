import { type CalendarDate, compare } from '@finance/shared/calendar';
import type { BillStatus } from '@finance/shared/contracts/billing/bills';
import { isPastDue } from '@finance/shared/holidays';
import type { BillFigures } from './bill-balance.ts';

/**
 * Status and isPending for `today` (the context's day). A due date on a weekend or a national holiday is
 * payable until the next business day, so the bill is OVERDUE only after that day.
 */
export function billStatus(
  dates: { openDate: CalendarDate; closingDate: CalendarDate; dueDate: CalendarDate },
  figures: BillFigures & { count: number },
  today: CalendarDate,
): { status: BillStatus; isPending: boolean } {
  const closed = compare(today, dates.closingDate) >= 0;
  const isPending = closed && figures.balance > 0;
  if ((closed || figures.count > 0) && figures.balance <= 0) return { status: 'PAID', isPending };
  if (compare(today, dates.openDate) < 0) return { status: 'FUTURE', isPending };
  if (!closed) return { status: 'OPEN', isPending };
  if (isPastDue(dates.dueDate, today)) return { status: 'OVERDUE', isPending };
  return { status: 'CLOSED', isPending };
}
