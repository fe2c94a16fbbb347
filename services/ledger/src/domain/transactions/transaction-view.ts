import { toIsoMidnight } from '@finance/shared/calendar';
import { iso } from '@finance/shared/db/context-scope';
import type { TransactionChanged } from '@finance/shared/queue/catalogue';
import type { TransactionRow } from '../../data-access/transaction-repository.ts';

/** The Transaction record of the spec: every field, dates at midnight UTC, legacy fields fixed. */
export function transactionView(row: TransactionRow) {
  return {
    id: row.id,
    amount: row.amount,
    date: toIsoMidnight(row.date),
    title: row.title,
    description: row.description,
    is_expense: row.is_expense,
    paid: row.paid,
    paid_at: iso(row.paid_at),
    type: row.type,
    installments: row.installments,
    installment_number: row.installment_number,
    frequency: row.frequency,
    currency: row.currency,
    account_id: row.account_id,
    credit_card_id: row.credit_card_id,
    bill_id: row.bill_id,
    billed_at: iso(row.billed_at),
    category_id: row.category_id,
    subcategory_id: row.subcategory_id,
    competence_date: row.competence_date ? toIsoMidnight(row.competence_date) : null,
    contact_id: row.contact_id,
    cost_center_id: row.cost_center_id,
    document_number: row.document_number,
    connected_transaction_id: row.connected_transaction_id,
    is_bill_payment: row.is_bill_payment,
    is_full_amount: row.is_full_amount,
    is_previous_balance: row.is_previous_balance,
    show_on_balance: row.show_on_balance,
    excluded_dates: [] as string[],
    payment_dates: [] as string[],
    is_remote: true,
    logo_url: row.logo_url,
    merchant_cnae: row.merchant_cnae,
    merchant_cnpj: row.merchant_cnpj,
    merchant_name: row.merchant_name,
    operation_type: row.operation_type,
    reconciled_at: iso(row.reconciled_at),
    reconciled_by_user_id: row.reconciled_by_user_id,
    reconciled_with_transaction_id: row.reconciled_with_transaction_id,
    profile_id: row.profile_id,
    user_id: row.user_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export type TransactionView = ReturnType<typeof transactionView>;

/** The slice of a row that `transaction.changed` carries. */
export function eventItem(
  row: Pick<TransactionRow, 'id' | 'date' | 'amount' | 'is_expense' | 'category_id' | 'subcategory_id' | 'type'>,
): TransactionChanged['transactions'][number] {
  return {
    id: row.id,
    date: row.date,
    amount: row.amount,
    is_expense: row.is_expense,
    category_id: row.category_id,
    subcategory_id: row.subcategory_id,
    type: row.type,
  };
}
