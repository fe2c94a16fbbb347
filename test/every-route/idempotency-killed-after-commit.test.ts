import { todayIn } from '@finance/shared/clock';
import { publicRoutes } from '@finance/shared/contracts/index';
import { idempotencyTestHooks } from '@finance/shared/http/idempotency';
import type { ApiClient } from '../support/api-client.ts';
import { importedMerchantEntry, importedTransfer } from '../support/imports.ts';
import { PluggyServer } from '../support/pluggy-server.ts';
import { ANA_CPF } from '../support/sandbox-bank.ts';
import { TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

type Ids = Record<string, string>;

interface Step {
  route: string;
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** A statement file, sent as the body with its media type. */
  file?: string;
  /** Waits until the request will write (what an earlier step set going is done). */
  ready?: (ids: Ids, sql: TestStack['sql']) => Promise<unknown>;
}

const STATEMENT_CSV = 'Data,Valor,Identificador,Descrição\n02/03/2026,-12.50,k-1,Padaria\n';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';

/**
 * Every write route of the table, with a request that writes, in an order where each one's records exist. A pay
 * writes in the ledger, not in billing (its retry replays the ledger's payment: idempotency-lost-answers.test.ts).
 */
const STEPS: Step[] = [
  { route: 'POST /v1/accounts', path: () => '/v1/accounts', body: () => ({ name: 'Nova', logo: '341' }) },
  {
    route: 'PUT /v1/accounts/:id',
    path: (ids) => `/v1/accounts/${ids.account}`,
    body: () => ({ name: 'Renomeada', logo: '341' }),
  },
  {
    route: 'POST /v1/credit-cards',
    path: () => '/v1/credit-cards',
    body: (ids) => ({ name: 'Novo', account_id: ids.account, closing_date: 10, expiring_date: 17, limit: 1000 }),
  },
  {
    route: 'PUT /v1/credit-cards/:id',
    path: (ids) => `/v1/credit-cards/${ids.card}`,
    body: () => ({ limit: 800_000 }),
  },
  {
    route: 'PATCH /v2/bills/closing-date/by-card/:cardId',
    path: (ids) => `/v2/bills/closing-date/by-card/${ids.card}`,
    body: () => ({ closing_day: 5, edition_type: 'THIS_AND_NEXT' }),
  },
  {
    route: 'POST /v2/bills/:id/pay',
    path: (ids) => `/v2/bills/${ids.bill}/pay`,
    body: (ids) => ({ account_id: ids.account }),
  },
  {
    route: 'POST /v1/transactions',
    path: () => '/v1/transactions',
    body: (ids) => ({ amount: 100, date: '2026-03-01', is_expense: true, title: 'Nova', account_id: ids.account }),
  },
  {
    route: 'POST /v1/transactions/create-transfer',
    path: () => '/v1/transactions/create-transfer',
    body: (ids) => ({
      amount: 100,
      date: '2026-03-01',
      paid: true,
      sent_account_id: ids.account,
      received_account_id: ids.other,
    }),
  },
  { route: 'POST /v1/transactions/:id/duplicate', path: (ids) => `/v1/transactions/${ids.transaction}/duplicate` },
  {
    route: 'POST /v1/transactions/:id/installments',
    path: (ids) => `/v1/transactions/${ids.parcelled}/installments`,
    body: () => ({ quantity: 1 }),
  },
  {
    route: 'POST /v2/transactions/:id/settle',
    path: (ids) => `/v2/transactions/${ids.unpaid}/settle`,
    body: (ids) => ({ account_id: ids.account }),
  },
  {
    route: 'PUT /v1/transactions/:id/splits',
    path: (ids) => `/v1/transactions/${ids.transaction}/splits`,
    body: (ids) => ({
      parts: [
        { amount: 300, category_id: ALIMENTACAO },
        { amount: 200, category_id: ids.category },
      ],
    }),
  },
  { route: 'DELETE /v1/transactions/:id/splits', path: (ids) => `/v1/transactions/${ids.transaction}/splits` },
  {
    route: 'PUT /v2/transactions/duplicate/update-many',
    path: (ids) => `/v2/transactions/duplicate/update-many?transactions_ids=${ids.transaction}`,
    body: () => ({ title: 'Editada' }),
  },
  { route: 'POST /v1/categories', path: () => '/v1/categories', body: () => ({ name: 'Nova' }) },
  { route: 'PUT /v1/categories/:id', path: (ids) => `/v1/categories/${ids.category}`, body: () => ({ name: 'Outra' }) },
  {
    route: 'POST /v1/subcategories',
    path: () => '/v1/subcategories',
    body: (ids) => ({ name: 'Nova', category_id: ids.category }),
  },
  {
    route: 'PUT /v1/subcategories/:id',
    path: (ids) => `/v1/subcategories/${ids.subcategory}`,
    body: () => ({ name: 'Outra' }),
  },
  {
    route: 'POST /v1/categorization-rules',
    path: () => '/v1/categorization-rules',
    body: (ids) => ({ source_transaction_id: ids.merchant, category_id: ALIMENTACAO, apply_to_existing: true }),
  },
  {
    route: 'PATCH /v1/categorization-rules/:id',
    path: (ids) => `/v1/categorization-rules/${ids.rule}`,
    body: () => ({ enabled: false }),
  },
  { route: 'POST /v1/tags', path: () => '/v1/tags', body: () => ({ name: 'Nova' }) },
  { route: 'PUT /v1/tags/:id', path: (ids) => `/v1/tags/${ids.tag}`, body: () => ({ color: '#22C55E' }) },
  { route: 'PUT /v2/personal-config', path: () => '/v2/personal-config', body: () => ({ include_transfers: true }) },
  { route: 'POST /v2/business/contacts', path: () => '/v2/business/contacts', body: () => ({ name: 'Novo' }) },
  {
    route: 'PUT /v2/business/contacts/:id',
    path: (ids) => `/v2/business/contacts/${ids.contact}`,
    body: () => ({ name: 'Outro' }),
  },
  { route: 'POST /v2/business/cost-centers', path: () => '/v2/business/cost-centers', body: () => ({ name: 'Novo' }) },
  {
    route: 'PUT /v2/business/cost-centers/:id',
    path: (ids) => `/v2/business/cost-centers/${ids.costCenter}`,
    body: () => ({ name: 'Outro' }),
  },
  {
    route: 'PUT /v2/business/dre-mapping',
    path: () => '/v2/business/dre-mapping',
    body: () => [{ category_id: ALIMENTACAO, dre_group: 'custos' }],
  },
  {
    route: 'POST /v1/spending-limits',
    path: () => '/v1/spending-limits',
    body: () => ({ amount: 10, category_id: ALIMENTACAO }),
  },
  {
    route: 'PUT /v1/spending-limits/:id',
    path: (ids) => `/v1/spending-limits/${ids.limit}`,
    body: () => ({ amount: 5 }),
  },
  {
    route: 'POST /v2/goals',
    path: () => '/v2/goals',
    body: () => ({ title: 'Nova', amount: 1000, deadline: '2027-06-30' }),
  },
  { route: 'PUT /v2/goals/:id', path: (ids) => `/v2/goals/${ids.goal}`, body: () => ({ amount: 2000 }) },
  {
    route: 'POST /v2/goals/:id/values',
    path: (ids) => `/v2/goals/${ids.goal}/values`,
    body: () => ({ date: '2026-03-01', value: 100 }),
  },
  {
    route: 'PATCH /v1/notifications/:id',
    path: (ids) => `/v1/notifications/${ids.notification}`,
    body: () => ({ read: true }),
  },
  {
    route: 'POST /v1/webhooks',
    path: () => '/v1/webhooks',
    body: (ids) => ({ url: `${ids.receiver}/other`, events: ['bill.closed'] }),
  },
  {
    route: 'POST /v1/webhooks/:id/deliveries/:deliveryId/retry',
    path: (ids) => `/v1/webhooks/${ids.webhook}/deliveries/${ids.delivery}/retry`,
  },
  {
    route: 'POST /v1/open-banking/imports',
    path: () => '/v1/open-banking/imports',
    body: () => ({
      connection: { id: 'conn-killed', institution: 'Banco' },
      accounts: [{ external_id: 'k-1', name: 'Conta', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 1 }],
      transactions: [],
    }),
  },
  {
    route: 'POST /v1/accounts/:id/statements',
    path: (ids) => `/v1/accounts/${ids.account}/statements?preset=nubank-conta`,
    file: STATEMENT_CSV,
  },
  {
    route: 'POST /v1/credit-cards/:id/statements',
    path: (ids) => `/v1/credit-cards/${ids.card}/statements?preset=nubank-cartao`,
    file: 'date,title,amount\n2026-03-03,Mercado,45.90\n',
  },
  {
    route: 'POST /v1/transactions/:id/reconcile',
    path: (ids) => `/v1/transactions/${ids.forecast}/reconcile`,
    body: (ids) => ({ transaction_id: ids.real }),
  },
  { route: 'POST /v1/transactions/:id/unreconcile', path: (ids) => `/v1/transactions/${ids.forecast}/unreconcile` },
  { route: 'POST /v1/transactions/:id/unlink', path: (ids) => `/v1/transactions/${ids.transfer}/unlink` },
  {
    route: 'POST /v1/open-banking/connections',
    path: () => '/v1/open-banking/connections',
    body: () => ({ institution_id: 'banco-sandbox', cpf: ANA_CPF }),
  },
  {
    route: 'POST /v1/open-banking/connections/:id/renew',
    path: (ids) => `/v1/open-banking/connections/${ids.awaiting}/renew`,
    body: () => ({ cpf: ANA_CPF }),
  },
  {
    route: 'POST /v1/open-banking/connections/:id/item',
    path: (ids) => `/v1/open-banking/connections/${ids.pluggy}/item`,
    body: (ids) => ({ item_id: ids.pluggyItem }),
  },
  {
    route: 'POST /v1/open-banking/connections/:id/sync',
    path: (ids) => `/v1/open-banking/connections/${ids.pluggy}/sync`,
    // the item's sync started: while it is still queued, a request coalesces with it and writes nothing
    ready: (ids, sql) =>
      waitFor(async () => {
        const [row] = await sql<{ queued: boolean }>(
          'select sync_queued_at is not null as queued from ledger.connections where id = $1',
          [ids.pluggy],
        );
        return !row.queued;
      }),
  },
  { route: 'DELETE /v2/goals/:id/values/:valueId', path: (ids) => `/v2/goals/${ids.goal}/values/${ids.goalValue}` },
  { route: 'DELETE /v2/goals/:id', path: (ids) => `/v2/goals/${ids.goal}` },
  { route: 'DELETE /v1/spending-limits/:id', path: (ids) => `/v1/spending-limits/${ids.limit}` },
  { route: 'DELETE /v1/webhooks/:id', path: (ids) => `/v1/webhooks/${ids.webhook}` },
  { route: 'DELETE /v1/categorization-rules/:id', path: (ids) => `/v1/categorization-rules/${ids.rule}` },
  { route: 'DELETE /v1/tags/:id', path: (ids) => `/v1/tags/${ids.tag}` },
  { route: 'DELETE /v2/business/contacts/:id', path: (ids) => `/v2/business/contacts/${ids.contact}` },
  { route: 'DELETE /v2/business/cost-centers/:id', path: (ids) => `/v2/business/cost-centers/${ids.costCenter}` },
  { route: 'DELETE /v1/subcategories/:id', path: (ids) => `/v1/subcategories/${ids.subcategory}` },
  { route: 'DELETE /v1/categories/:id', path: (ids) => `/v1/categories/${ids.category}` },
  { route: 'DELETE /v1/transactions/:id', path: (ids) => `/v1/transactions/${ids.transaction}` },
  { route: 'DELETE /v1/credit-cards/:id', path: (ids) => `/v1/credit-cards/${ids.spareCard}` },
  { route: 'DELETE /v1/accounts/:id', path: (ids) => `/v1/accounts/${ids.spareAccount}` },
  { route: 'DELETE /v1/open-banking/connections/:id', path: (ids) => `/v1/open-banking/connections/${ids.pluggy}` },
];

/** The writes that commit nothing in the service that owns the route (the pay's write is the ledger's). */
const WRITES_ELSEWHERE = new Set(['POST /v2/bills/:id/pay']);

/**
 * Every write route of the table, its owning service killed right after the commit of a keyed request (the
 * `afterCommit` hook drops it there): the retry with the same key gets the answer kept with the write
 * (or rebuilt from its recovery point), with `Idempotent-Replayed: true`, and nothing runs again.
 */
describe('idempotency: every write route, its service killed right after its commit', () => {
  let stack: TestStack;
  let api: ApiClient;
  let receiver: WebhookReceiver;
  let pluggy: PluggyServer;
  const ids: Ids = {};

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    pluggy = await new PluggyServer().start();
    stack = await TestStack.start({
      sandbox: true,
      serviceEnv: {
        insights: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' },
        ledger: { PLUGGY_CLIENT_ID: 'finance-api-test', PLUGGY_CLIENT_SECRET: 'segredo', PLUGGY_API_URL: pluggy.url },
      },
    });
    // a licensed company reaches personal and business routes alike
    api = (await stack.companyClient(await stack.createUser())).api;
    const created = async (path: string, body: unknown) => {
      const response = await api.post(path, body);
      if (response.status !== 200 && response.status !== 201) {
        throw new Error(`set-up ${path}: ${response.status} ${JSON.stringify(response.body)}`);
      }
      return response.body;
    };
    const account = (name: string) => created('/v1/accounts', { name, logo: '341' });
    const card = (accountId: string) =>
      created('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 10,
        expiring_date: 17,
        limit: 1_000_000,
      });
    ids.receiver = receiver.url;
    ids.account = (await account('Dono')).id;
    ids.other = (await account('Outra')).id;
    ids.spareAccount = (await account('Sobra')).id;
    ids.card = (await card(ids.account)).id;
    ids.spareCard = (await card(ids.account)).id;
    ids.bill = (
      await created('/v1/transactions', {
        amount: 1000,
        date: '2026-03-05',
        is_expense: true,
        title: 'Compra',
        credit_card_id: ids.card,
      })
    ).bill_id;
    const entry = (extra: Record<string, unknown>) =>
      created('/v1/transactions', {
        amount: 500,
        date: '2026-03-02',
        is_expense: true,
        title: 'Conta',
        account_id: ids.account,
        ...extra,
      });
    ids.transaction = (await entry({})).id;
    ids.parcelled = (await entry({ type: 'PARCELLED', installments: 2 })).id;
    ids.unpaid = (await entry({ paid: false })).id;
    ids.forecast = (await entry({ paid: false, title: 'Previsão' })).id;
    ids.real = (await entry({ paid: true, title: 'Real' })).id;
    ids.category = (await created('/v1/categories', { name: 'Própria', is_expense: true })).id;
    ids.subcategory = (await created('/v1/subcategories', { name: 'Sub', category_id: ids.category })).id;
    ids.merchant = (await importedMerchantEntry(api, 'conn-every')).transactionId;
    ids.transfer = await importedTransfer(api, 'conn-transfer', '2026-03-02');
    ids.rule = (
      await created('/v1/categorization-rules', { source_transaction_id: ids.merchant, category_id: ids.category })
    ).rule.id;
    ids.tag = (await created('/v1/tags', { name: 'Dono' })).id;
    ids.contact = (await created('/v2/business/contacts', { name: 'Cliente' })).id;
    ids.costCenter = (await created('/v2/business/cost-centers', { name: 'Centro' })).id;
    await entry({ category_id: ALIMENTACAO, date: todayIn(), amount: 5000 });
    // a limit below what the category already spent notifies at once
    ids.limit = (await created('/v1/spending-limits', { amount: 1000, category_id: ALIMENTACAO })).id;
    ids.notification = (await api.get('/v1/notifications')).body.data[0].id;
    ids.goal = (await created('/v2/goals', { title: 'Meta', amount: 100_000, deadline: '2027-06-30' })).id;
    ids.goalValue = (await created(`/v2/goals/${ids.goal}/values`, { date: '2026-03-01', value: 500 })).id;
    ids.webhook = (await created('/v1/webhooks', { url: `${receiver.url}/hook`, events: ['transaction.created'] })).id;
    // a bank connection waiting for its customer (Banco Sandbox), and one waiting for its Pluggy item
    ids.awaiting = (
      await created('/v1/open-banking/connections', { institution_id: 'banco-sandbox', cpf: ANA_CPF })
    ).id;
    const viaPluggy = await created('/v1/open-banking/connections', { institution_id: 'pluggy' });
    ids.pluggy = viaPluggy.id;
    ids.pluggyItem = pluggy.itemFor(viaPluggy.connect_token);
    await entry({ title: 'Avisada' });
    ids.delivery = await waitFor(async () => {
      const [delivery] = (await api.get(`/v1/webhooks/${ids.webhook}/deliveries`)).body.data;
      return delivery?.status === 'SUCCEEDED' && delivery.id;
    });
  }, 120_000);
  afterAll(async () => {
    idempotencyTestHooks.afterCommit = undefined;
    await stack?.stop();
    await receiver?.stop();
    await pluggy?.stop();
  });

  it('when the route table is read, then every write route that takes a key has a step', () => {
    // a public route (no API key: a bank's or Pluggy's call) takes no Idempotency-Key
    const writes = publicRoutes.filter((route) => route.method !== 'get' && !route.public);
    expect(STEPS.map((step) => step.route).sort()).toEqual(
      writes.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort(),
    );
  });

  it.each(STEPS.map((step) => [step.route, step]))(
    'when %s is killed right after its commit, then the retry replays its answer',
    async (name, step) => {
      const route = publicRoutes.find((r) => `${r.method.toUpperCase()} ${r.path}` === name);
      const key = `killed-${name.replace(/[^\w]+/g, '-')}`;
      let dropped = false;
      idempotencyTestHooks.afterCommit = async (service, req) => {
        if (dropped || service !== route?.service || req.header('idempotency-key') !== key) return undefined;
        dropped = true;
        return 'drop';
      };
      const send = () =>
        api.request(name.split(' ')[0], step.path(ids), {
          body: step.body?.(ids),
          rawBody: step.file,
          headers: { 'idempotency-key': key, ...(step.file ? { 'content-type': 'text/csv' } : {}) },
        });
      await step.ready?.(ids, stack.sql.bind(stack));
      const first = await send();
      idempotencyTestHooks.afterCommit = undefined;
      if (WRITES_ELSEWHERE.has(name)) expect(first.status).toBe(200);
      else expect({ name, status: first.status, dropped }).toEqual({ name, status: 503, dropped: true });

      const retry = await send();
      expect({ name, ok: retry.status < 300, replayed: retry.headers.get('idempotent-replayed') }).toEqual({
        name,
        ok: true,
        replayed: 'true',
      });
      // the answer the write kept (or rebuilt from its recovery point and kept since)
      const [record] = await stack.sql<{ status: number; body: string }>(
        `select status, body from ${route?.service}.idempotency_keys where idempotency_key = $1`,
        [key],
      );
      expect(record.status).toBe(retry.status);
      expect(retry.body).toEqual(JSON.parse(record.body));
      const again = await send();
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(retry.body);
    },
  );
});
