import { randomUUID } from 'node:crypto';
import { addDays, type CalendarDate } from '@finance/shared/calendar';
import { publicRoutes } from '@finance/shared/contracts/index';
import type { ApiClient } from './api-client.ts';
import { importedTransfer } from './imports.ts';
import type { ReadIds } from './read-routes.ts';
import { BRUNO_CPF, connectSandbox } from './sandbox-bank.ts';

type Route = (typeof publicRoutes)[number];
const nameOf = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;

/** What a write sent and got: its route as the table names it and the answer's status. */
export interface WriteCall {
  route: string;
  status: number;
}

/**
 * Every write route of the route table once, in a company context that holds `ids` (and a webhook with a delivery),
 * in an order that keeps each call's records alive: creates, then changes, then deletions of what was created
 * for the purpose. Answers are returned, not checked; a write route missing here throws, naming it, so a new
 * route joins the calls whose statements are checked.
 */
export async function writeEveryRoute(
  api: ApiClient,
  ids: ReadIds & { webhook: string; delivery: string; bulk?: { account: string; card: string } },
  today: CalendarDate,
  gatewayUrl: string,
): Promise<WriteCall[]> {
  const calls: WriteCall[] = [];
  const send = async (route: string, path: string, body?: unknown) => {
    const [method] = route.split(' ');
    const response = await api.request(method, path, { body });
    calls.push({ route, status: response.status });
    return response.body;
  };
  const sendFile = async (route: string, path: string, csv: string) => {
    const response = await api.request('POST', path, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    calls.push({ route, status: response.status });
  };
  const [day, month, year] = [today.slice(8), today.slice(5, 7), today.slice(0, 4)];
  const account = await send('POST /v1/accounts', '/v1/accounts', { name: 'Nova conta', logo: '260' });
  await send('PUT /v1/accounts/:id', `/v1/accounts/${account.id}`, { name: 'Conta renomeada' });
  const card = await send('POST /v1/credit-cards', '/v1/credit-cards', {
    name: 'Outro cartão',
    account_id: ids.account,
    closing_date: 3,
    expiring_date: 10,
    limit: 300_000,
  });
  await send('PUT /v1/credit-cards/:id', `/v1/credit-cards/${card.id}`, { limit: 400_000 });
  const purchase = await send('POST /v1/transactions', '/v1/transactions', {
    amount: 12_990,
    date: today,
    is_expense: true,
    title: 'Compra parcelada',
    credit_card_id: ids.card,
    type: 'PARCELLED',
    installments: 3,
  });
  await send('POST /v1/transactions/:id/installments', `/v1/transactions/${purchase.id}/installments`, { quantity: 1 });
  const payable = await send('POST /v1/transactions', '/v1/transactions', {
    amount: 25_000,
    date: today,
    is_expense: true,
    title: 'Fornecedor',
    account_id: ids.account,
    paid: false,
  });
  await send('POST /v2/transactions/:id/settle', `/v2/transactions/${payable.id}/settle`, {
    account_id: ids.account,
    paid_at: today,
  });
  const copy = await send('POST /v1/transactions/:id/duplicate', `/v1/transactions/${payable.id}/duplicate`);
  await send(
    'PUT /v2/transactions/duplicate/update-many',
    `/v2/transactions/duplicate/update-many?transactions_ids=${copy.id}`,
    { category_id: ids.category, edition_type: 'THIS' },
  );
  await send('PUT /v1/transactions/:id/splits', `/v1/transactions/${copy.id}/splits`, {
    parts: [
      { amount: 20_000, category_id: ids.category, cost_center_id: ids.costCenter ?? null },
      { amount: 5_000, category_id: ids.category, tag_ids: [ids.tag] },
    ],
  });
  await send('DELETE /v1/transactions/:id/splits', `/v1/transactions/${copy.id}/splits`);
  await send('POST /v1/transactions/create-transfer', '/v1/transactions/create-transfer', {
    amount: 5_000,
    date: today,
    sent_account_id: ids.account,
    received_account_id: account.id,
  });
  await send('POST /v2/bills/:id/pay', `/v2/bills/${purchase.bill_id}/pay`, { account_id: ids.account, amount: 1_000 });
  await send('PATCH /v2/bills/closing-date/by-card/:cardId', `/v2/bills/closing-date/by-card/${card.id}`, {
    closing_day: 5,
    edition_type: 'ALL',
  });
  const category = await send('POST /v1/categories', '/v1/categories', { name: `Nova ${randomUUID().slice(0, 6)}` });
  await send('PUT /v1/categories/:id', `/v1/categories/${category.id}`, { name: 'Renomeada' });
  const subcategory = await send('POST /v1/subcategories', '/v1/subcategories', {
    name: 'Nova sub',
    category_id: category.id,
  });
  await send('PUT /v1/subcategories/:id', `/v1/subcategories/${subcategory.id}`, { name: 'Sub renomeada' });
  await send('PATCH /v1/categorization-rules/:id', `/v1/categorization-rules/${ids.rule}`, {
    category_id: category.id,
    apply_to_existing: true,
  });
  const rule = await send('POST /v1/categorization-rules', '/v1/categorization-rules', {
    source_transaction_id: ids.transaction,
    category_id: ids.category,
    subcategory_id: ids.subcategory,
    apply_to_existing: true,
  });
  const tag = await send('POST /v1/tags', '/v1/tags', { name: `Tag ${randomUUID().slice(0, 6)}` });
  await send('PUT /v1/tags/:id', `/v1/tags/${tag.id}`, { color: '#22C55E' });
  await send('PUT /v2/personal-config', '/v2/personal-config', { show_open_bill: false });
  const contact = await send('POST /v2/business/contacts', '/v2/business/contacts', {
    name: 'Fornecedor',
    kind: 'SUPPLIER',
  });
  await send('PUT /v2/business/contacts/:id', `/v2/business/contacts/${contact.id}`, { name: 'Fornecedor Ltda' });
  const costCenter = await send('POST /v2/business/cost-centers', '/v2/business/cost-centers', { name: 'Vendas' });
  await send('PUT /v2/business/cost-centers/:id', `/v2/business/cost-centers/${costCenter.id}`, { name: 'Vendas SP' });
  await send('PUT /v2/business/dre-mapping', '/v2/business/dre-mapping', [
    { category_id: ids.category, dre_group: 'custos' },
  ]);
  const limit = await send('POST /v1/spending-limits', '/v1/spending-limits', {
    amount: 90_000,
    category_id: category.id,
  });
  await send('PUT /v1/spending-limits/:id', `/v1/spending-limits/${limit.id}`, { amount: 80_000 });
  const goal = await send('POST /v2/goals', '/v2/goals', {
    title: 'Nova meta',
    amount: 500_000,
    deadline: addDays(today, 200),
  });
  await send('PUT /v2/goals/:id', `/v2/goals/${goal.id}`, { amount: 600_000 });
  const value = await send('POST /v2/goals/:id/values', `/v2/goals/${ids.goal}/values`, { date: today, value: 2_000 });
  await send('DELETE /v2/goals/:id/values/:valueId', `/v2/goals/${ids.goal}/values/${value.id}`);
  const [notification] = (await api.get('/v1/notifications')).body.data;
  if (notification) await send('PATCH /v1/notifications/:id', `/v1/notifications/${notification.id}`, { read: true });
  const webhook = await send('POST /v1/webhooks', '/v1/webhooks', {
    url: 'https://example.com/finance-hooks',
    events: ['bill.closed'],
  });
  await send(
    'POST /v1/webhooks/:id/deliveries/:deliveryId/retry',
    `/v1/webhooks/${ids.webhook}/deliveries/${ids.delivery}/retry`,
  );
  await send('POST /v1/open-banking/imports', '/v1/open-banking/imports', {
    connection: { id: randomUUID(), institution: 'Banco' },
    accounts: [{ external_id: 'nova', name: 'Conta importada', type: 'PERSONAL_BANK', subtype: null, balance: 10 }],
  });
  // two imported accounts and a Pix between them: one transfer, unlinked again
  const transfer = { id: await importedTransfer(api, randomUUID(), today) };
  await send('POST /v1/transactions/:id/unlink', `/v1/transactions/${transfer.id}/unlink`);
  await sendFile(
    'POST /v1/accounts/:id/statements',
    `/v1/accounts/${ids.account}/statements?preset=nubank-conta`,
    `Data,Valor,Identificador,Descrição\n${day}/${month}/${year},-12.50,extrato-1,Padaria\n${day}/${month}/${year},300.00,extrato-2,Pix recebido\n`,
  );
  await sendFile(
    'POST /v1/credit-cards/:id/statements',
    `/v1/credit-cards/${ids.card}/statements?preset=nubank-cartao`,
    `date,title,amount\n${today},Mercado,45.90\n`,
  );
  const forecast = await send('POST /v1/transactions', '/v1/transactions', {
    amount: 7_700,
    date: today,
    is_expense: true,
    title: 'Conta de luz',
    account_id: ids.account,
    paid: false,
  });
  await send('POST /v1/transactions/:id/reconcile', `/v1/transactions/${forecast.id}/reconcile`, {
    transaction_id: payable.id,
  });
  await send('POST /v1/transactions/:id/unreconcile', `/v1/transactions/${forecast.id}/unreconcile`);
  // a connection to Banco Sandbox (its one-account customer), authorised through the public callback, synced again
  const connection = await connectSandbox(gatewayUrl, api, { cpf: BRUNO_CPF });
  calls.push(
    { route: 'POST /v1/open-banking/connections', status: 201 },
    { route: 'GET /v1/open-banking/callback', status: 200 },
  );
  await send('POST /v1/open-banking/connections/:id/sync', `/v1/open-banking/connections/${connection.id}/sync`);
  await send('POST /v1/open-banking/connections/:id/renew', `/v1/open-banking/connections/${connection.id}/renew`, {});
  await send('POST /v1/open-banking/connections/:id/item', `/v1/open-banking/connections/${connection.id}/item`, {
    item_id: 'item-desconhecido',
  });
  const pluggyHook = await fetch(`${gatewayUrl}/v1/open-banking/pluggy/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event: 'item/updated', itemId: randomUUID() }),
  });
  calls.push({ route: 'POST /v1/open-banking/pluggy/webhook', status: pluggyHook.status });
  // the deletions, last
  await send('DELETE /v1/open-banking/connections/:id', `/v1/open-banking/connections/${connection.id}`);
  await send('DELETE /v1/transactions/:id', `/v1/transactions/${copy.id}`);
  await send('DELETE /v1/credit-cards/:id', `/v1/credit-cards/${card.id}`);
  await send('DELETE /v1/accounts/:id', `/v1/accounts/${account.id}`);
  // an account and a card holding thousands of entries, when the caller made them: deletions cost what they hold
  if (ids.bulk) {
    await send('DELETE /v1/credit-cards/:id', `/v1/credit-cards/${ids.bulk.card}`);
    await send('DELETE /v1/accounts/:id', `/v1/accounts/${ids.bulk.account}`);
  }
  await send('DELETE /v1/categorization-rules/:id', `/v1/categorization-rules/${rule.rule.id}`);
  await send('DELETE /v1/subcategories/:id', `/v1/subcategories/${subcategory.id}`);
  await send('DELETE /v1/categories/:id', `/v1/categories/${category.id}`);
  await send('DELETE /v1/tags/:id', `/v1/tags/${tag.id}`);
  await send('DELETE /v2/business/contacts/:id', `/v2/business/contacts/${contact.id}`);
  await send('DELETE /v2/business/cost-centers/:id', `/v2/business/cost-centers/${costCenter.id}`);
  await send('DELETE /v1/spending-limits/:id', `/v1/spending-limits/${limit.id}`);
  await send('DELETE /v2/goals/:id', `/v2/goals/${goal.id}`);
  await send('DELETE /v1/webhooks/:id', `/v1/webhooks/${webhook.id}`);

  const sent = new Set(calls.map((call) => call.route));
  const missing = publicRoutes
    .filter((route) => route.method !== 'get')
    .map(nameOf)
    .filter((name) => !sent.has(name));
  if (missing.length) throw new Error(`writeEveryRoute: no call for ${missing.join(', ')}`);
  return calls;
}
