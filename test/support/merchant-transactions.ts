import type { ApiClient } from './api-client.ts';
import type { Tenant, TestStack } from './stack.ts';
import { waitFor } from './wait-for.ts';

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

/** A rule made from `sourceId`, matching on the merchant's name and putting its matches in `categoryId`. */
export async function merchantNameRule(api: ApiClient, sourceId: string, categoryId: string) {
  const response = await api.post('/v1/categorization-rules', {
    source_transaction_id: sourceId,
    category_id: categoryId,
    match_fields: ['merchant_name'],
  });
  if (response.status !== 201) throw new Error(`rule not created: ${JSON.stringify(response.body)}`);
  return response.body.rule;
}

/** A tenant's account with one "Mega Loja" purchase and a rule on that name putting it in `categoryId`. */
export async function megaLojaRule(stack: TestStack, tenant: Tenant, categoryId: string) {
  const accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id as string;
  const sourceId = await merchantTransaction(stack, tenant.api, {
    accountId,
    merchantName: 'Mega Loja',
    merchantCnpj: '55.555.555/0001-55',
  });
  const rule = await merchantNameRule(tenant.api, sourceId, categoryId);
  return { accountId, sourceId, rule };
}

/** The job an apply_to_existing of the rule recorded, once its run is committed. */
export const recordedJobOf = (stack: TestStack, ruleId: string): Promise<string> =>
  waitFor(
    async () => {
      const rows = await stack.sql<{ job_id: string }>(
        'select job_id from ledger.recategorization_runs where rule_id = $1',
        [ruleId],
      );
      return rows[0]?.job_id;
    },
    10_000,
    10,
  );

/**
 * The `transaction.changed` (updated) events of a context that carry rows moved to `categoryId`: how many, the most
 * items one carries, and how many name another event id than their outbox row's.
 */
export async function recategorizationEvents(stack: TestStack, userId: string, categoryId: string) {
  const [events] = await stack.sql<{ events: string; largest: number; misnamed: string }>(
    `select count(*) as events, max(json_array_length(e.payload->'data'->'transactions')) as largest,
       count(*) filter (where e.payload->>'event_id' <> e.id::text) as misnamed
     from ledger.outbox_events e
     where e.type = 'transaction.changed' and e.payload->'data'->>'change' = 'updated'
       and e.payload->'context'->>'user_id' = $1 and e.payload->'data'->'transactions'->0->>'category_id' = $2`,
    [userId, categoryId],
  );
  return { events: Number(events.events), largest: events.largest, misnamed: Number(events.misnamed) };
}

/**
 * Items of the context's `transaction.changed` (updated) events that put a row in `categoryId`, and how many
 * distinct rows they name: equal when no row went out twice.
 */
export async function recategorizedInEvents(stack: TestStack, userId: string, categoryId: string) {
  const [events] = await stack.sql<{ items: string; distinct_ids: string }>(
    `select count(*) as items, count(distinct item->>'id') as distinct_ids
     from ledger.outbox_events e, json_array_elements(e.payload->'data'->'transactions') item
     where e.type = 'transaction.changed' and e.payload->'data'->>'change' = 'updated'
       and e.payload->'context'->>'user_id' = $1 and item->>'category_id' = $2`,
    [userId, categoryId],
  );
  return { items: Number(events.items), distinctIds: Number(events.distinct_ids) };
}
