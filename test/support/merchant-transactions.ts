import type { ApiClient } from './api-client.ts';
import type { TestStack } from './stack.ts';

export interface MerchantTransactionInput {
  accountId: string;
  merchantName?: string | null;
  merchantCnpj?: string | null;
  isExpense?: boolean;
  title?: string;
  date?: string;
  categoryId?: string;
}

/**
 * A transaction with merchant data, as an open-banking import leaves it: created through the public API,
 * then given its merchant fields with SQL (the public API never takes merchant data from a client).
 */
export async function merchantTransaction(
  stack: TestStack,
  api: ApiClient,
  input: MerchantTransactionInput,
): Promise<string> {
  const response = await api.post('/v1/transactions', {
    account_id: input.accountId,
    amount: 1234,
    date: input.date ?? '2026-03-10',
    is_expense: input.isExpense ?? true,
    title: input.title ?? 'Compra',
    ...(input.categoryId ? { category_id: input.categoryId } : {}),
  });
  if (response.status !== 201) throw new Error(`transaction not created: ${JSON.stringify(response.body)}`);
  await stack.sql('update ledger.transactions set merchant_name = $2, merchant_cnpj = $3 where id = $1', [
    response.body.id,
    input.merchantName ?? null,
    input.merchantCnpj ?? null,
  ]);
  return response.body.id;
}

/** Category and subcategory of transactions by id. */
export async function categoriesOf(
  stack: TestStack,
  ids: string[],
): Promise<Record<string, { category_id: string | null; subcategory_id: string | null }>> {
  const rows = await stack.sql<{ id: string; category_id: string | null; subcategory_id: string | null }>(
    'select id, category_id, subcategory_id from ledger.transactions where id = any($1::uuid[])',
    [ids],
  );
  return Object.fromEntries(
    rows.map((row) => [row.id, { category_id: row.category_id, subcategory_id: row.subcategory_id }]),
  );
}
