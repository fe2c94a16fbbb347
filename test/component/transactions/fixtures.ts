import type { ApiClient } from '../../support/api-client.ts';

/** Creates an account through the API and returns its id. */
export async function newAccount(api: ApiClient, balance = 0, name = 'Conta corrente'): Promise<string> {
  const response = await api.post('/v1/accounts', { name, logo: '341', balance });
  if (response.status !== 201) throw new Error(`account not created: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

/** Creates an account expense through the API with plain defaults overridden by `body`; throws unless 201. */
export async function createTransaction(api: ApiClient, accountId: string, body: Record<string, unknown> = {}) {
  const response = await api.post('/v1/transactions', {
    amount: 500,
    date: '2026-01-10',
    is_expense: true,
    title: 'Item',
    account_id: accountId,
    ...body,
  });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return response.body;
}

export const TRANSACTION_FIELDS = [
  'id',
  'amount',
  'date',
  'title',
  'description',
  'is_expense',
  'paid',
  'paid_at',
  'type',
  'installments',
  'installment_number',
  'frequency',
  'currency',
  'account_id',
  'credit_card_id',
  'bill_id',
  'billed_at',
  'category_id',
  'subcategory_id',
  'competence_date',
  'contact_id',
  'cost_center_id',
  'document_number',
  'connected_transaction_id',
  'is_bill_payment',
  'is_full_amount',
  'is_previous_balance',
  'show_on_balance',
  'excluded_dates',
  'payment_dates',
  'is_remote',
  'logo_url',
  'merchant_cnae',
  'merchant_cnpj',
  'merchant_name',
  'operation_type',
  'reconciled_at',
  'reconciled_by_user_id',
  'reconciled_with_transaction_id',
  'profile_id',
  'user_id',
  'createdAt',
  'updatedAt',
].sort();

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
