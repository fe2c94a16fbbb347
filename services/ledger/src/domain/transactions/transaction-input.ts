import { type CalendarDate, parseCalendarDate } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { BANK_DAY_RANGE } from '@finance/shared/contracts/common';
import type { TransactionFields } from '@finance/shared/contracts/ledger/transactions';
import { forbidden, invalidField } from '@finance/shared/errors/app-error';

export const BUSINESS_FIELDS = ['competence_date', 'contact_id', 'cost_center_id', 'document_number'] as const;

/** Business fields with a value need an active company license; null (clearing) is allowed to all. */
export function assertBusinessAllowed(ctx: CallerContext, input: TransactionFields): void {
  if (ctx.business) return;
  const used = BUSINESS_FIELDS.filter((field) => input[field] !== undefined && input[field] !== null);
  if (used.length) {
    throw forbidden(`Campos empresariais (${used.join(', ')}) exigem uma empresa com licença ativa`);
  }
}

export function calendarDateOf(field: string, value: string): CalendarDate {
  const date = parseCalendarDate(value);
  if (!date) throw invalidField(field, 'data inválida');
  return date;
}

/** Dates an entry may carry (the bank-day range): series arithmetic (installments, shifts, appends) stays in the calendar. */
export function entryDateOf(field: string, value: string): CalendarDate {
  const date = calendarDateOf(field, value);
  if (date < BANK_DAY_RANGE.from || date > BANK_DAY_RANGE.to) {
    throw invalidField(field, `a data deve estar entre ${BANK_DAY_RANGE.from} e ${BANK_DAY_RANGE.to}`);
  }
  return date;
}

/** An empty description is kept as null, so "no description" has one spelling. */
export const descriptionOf = (value: string | null | undefined): string | null => (value ? value : null);
