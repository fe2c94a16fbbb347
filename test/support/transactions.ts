import { transactionSchema } from '@finance/shared/contracts/ledger/transactions';
import type { ApiClient } from './api-client.ts';

/** Creates an account through the API and returns its id. */
export async function newAccount(api: ApiClient, balance = 0, name = 'Conta corrente'): Promise<string> {
  const response = await api.post('/v1/accounts', { name, logo: '341', balance });
  if (response.status !== 201) throw new Error(`account not created: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

/** Creates a card on `accountId` through the API (closing on the 10th, due on the 17th) and returns its id. */
export async function newCard(api: ApiClient, accountId: string): Promise<string> {
  const response = await api.post('/v1/credit-cards', {
    name: 'Cartão',
    account_id: accountId,
    closing_date: 10,
    expiring_date: 17,
  });
  if (response.status !== 201) throw new Error(`card not created: ${JSON.stringify(response.body)}`);
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

/** The fields of a Transaction answer: the contract's `Transaction` schema (one home), which the answers are checked against. */
export const TRANSACTION_FIELDS = Object.keys(transactionSchema.describe().keys).sort();

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
