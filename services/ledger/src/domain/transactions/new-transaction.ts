import { addMonthsClamped, type CalendarDate, compare, type Frequency, occurrenceDate } from '@finance/shared/calendar';
import { newId } from '@finance/shared/db/base-entity';
import type { NewTransaction, TransactionRow } from '../../data-access/transaction-repository.ts';

/** A row with every column set: defaults of the record unless given. */
export function blankTransaction(
  fields: Pick<NewTransaction, 'user_id' | 'profile_id' | 'amount' | 'date' | 'title' | 'is_expense' | 'type'> &
    Partial<NewTransaction>,
): NewTransaction {
  return {
    id: newId(),
    description: null,
    paid: false,
    paid_at: null,
    installments: 1,
    installment_number: null,
    frequency: null,
    currency: 'BRL',
    account_id: null,
    credit_card_id: null,
    bill_id: null,
    billed_at: null,
    category_id: null,
    subcategory_id: null,
    competence_date: null,
    contact_id: null,
    cost_center_id: null,
    document_number: null,
    connected_transaction_id: null,
    is_bill_payment: false,
    is_full_amount: false,
    is_previous_balance: false,
    show_on_balance: true,
    logo_url: null,
    merchant_cnae: null,
    merchant_cnpj: null,
    merchant_name: null,
    operation_type: null,
    reconciled_at: null,
    reconciled_by_user_id: null,
    reconciled_with_transaction_id: null,
    series_index: null,
    external_id: null,
    connection_id: null,
    ...fields,
  };
}

/** Occurrences stop 12 months after today (a rolling horizon the daily job moves forward). */
export const recurrenceHorizon = (today: CalendarDate): CalendarDate => addMonthsClamped(today, 12);

/** Upper bound of occurrences written in one go, so a very old anchor cannot make one huge statement. */
export const MAX_OCCURRENCES_PER_RUN = 5000;

/** Dates of a recurrence from `fromIndex` up to the horizon, at most MAX_OCCURRENCES_PER_RUN. */
export function pendingOccurrences(
  anchor: CalendarDate,
  frequency: Frequency,
  horizon: CalendarDate,
  fromIndex: number,
): CalendarDate[] {
  const dates: CalendarDate[] = [];
  // stops at the cap instead of walking a decades-old daily anchor to the end
  for (let index = fromIndex; dates.length < MAX_OCCURRENCES_PER_RUN; index++) {
    const date = occurrenceDate(anchor, frequency, index);
    if (compare(date, horizon) > 0) break;
    dates.push(date);
  }
  return dates;
}

/** A copy of a series member as the next one: same values, new id, date and position, unpaid. */
export function nextMember(
  template: TransactionRow,
  date: CalendarDate,
  seriesIndex: number,
  extra: Partial<NewTransaction> = {},
): NewTransaction {
  return blankTransaction({
    ...pick(template),
    id: newId(),
    date,
    series_index: seriesIndex,
    paid: false,
    paid_at: null,
    ...extra,
  });
}

/** The values a new series member inherits from its template. */
function pick(row: TransactionRow) {
  return {
    user_id: row.user_id,
    profile_id: row.profile_id,
    amount: row.amount,
    date: row.date,
    title: row.title,
    description: row.description,
    is_expense: row.is_expense,
    type: row.type,
    installments: row.installments,
    installment_number: row.installment_number,
    frequency: row.frequency,
    currency: row.currency,
    account_id: row.account_id,
    credit_card_id: row.credit_card_id,
    category_id: row.category_id,
    subcategory_id: row.subcategory_id,
    competence_date: row.competence_date,
    contact_id: row.contact_id,
    cost_center_id: row.cost_center_id,
    document_number: row.document_number,
    connected_transaction_id: row.connected_transaction_id,
    is_full_amount: row.is_full_amount,
    show_on_balance: row.show_on_balance,
  };
}
