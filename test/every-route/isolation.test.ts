// the context's today (default zone America/Sao_Paulo): the limit below counts entries dated up to it
import { todayIn } from '@finance/shared/clock';
import { publicRoutes } from '@finance/shared/contracts/index';
import { QUEUES } from '@finance/shared/queue/catalogue';
import type { ApiClient } from '../support/api-client.ts';
import { importedMerchantEntry } from '../support/imports.ts';
import { sampleBody } from '../support/route-requests.ts';
import { TestStack } from '../support/stack.ts';
import { tableContents } from '../support/table-contents.ts';
import { waitFor } from '../support/wait-for.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const withParams = publicRoutes.filter((route) => route.path.includes(':'));
const routeName = (route: (typeof publicRoutes)[number]) => `${route.method.toUpperCase()} ${route.path}`;

/** A body valid on its own and naming no record of the owner, so only the id in the path can give 404. */
const BODIES: Record<string, unknown> = {
  'PUT /v1/accounts/:id': { name: 'Invasor', logo: '341' },
  'PUT /v1/credit-cards/:id': { name: 'Invasor' },
  'PATCH /v2/bills/closing-date/by-card/:cardId': { closing_day: 5 },
  'POST /v1/transactions/:id/installments': { quantity: 1 },
  'PUT /v1/transactions/:id/splits': { parts: [{ amount: 2_500 }, { amount: 2_500 }] },
  'PUT /v1/categories/:id': { name: 'Invasor' },
  'PUT /v1/subcategories/:id': { name: 'Invasor' },
  'PATCH /v1/categorization-rules/:id': { enabled: false },
  'PUT /v1/tags/:id': { name: 'Invasor' },
  'PUT /v2/business/contacts/:id': { name: 'Invasor' },
  'PUT /v2/business/cost-centers/:id': { name: 'Invasor' },
  'PUT /v1/spending-limits/:id': { amount: 5 },
  'PUT /v2/goals/:id': { title: 'Invasor' },
  'POST /v2/goals/:id/values': { date: '2026-03-01', value: 100 },
  'PATCH /v1/notifications/:id': { read: true },
  'POST /v1/transactions/:id/reconcile': { transaction_id: '00000000-0000-4000-8000-000000000000' },
  'POST /v1/open-banking/connections/:id/item': { item_id: 'item-do-dono' },
};

/**
 * Every route that takes an id, called with a real record of another context: 404 with the error body,
 * and no table of any service changes. The owner's records live in a licensed company, so business
 * routes are covered too; the intruders are the same user's personal key and another user's company.
 */
describe('isolation on every route that takes an id', () => {
  let stack: TestStack;
  const ids: Record<string, string> = {};
  let intruders: Array<{ who: string; api: ApiClient; accountId: string; business: boolean }>;
  let ownerApi: ApiClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // the owner's webhook posts to a receiver on 127.0.0.1
    stack = await TestStack.start({ serviceEnv: { insights: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } } });
    const owner = await stack.tenant();
    const { api } = await stack.companyClient(owner.userId);
    ownerApi = api;
    const created = async (path: string, body: unknown) => {
      const response = await api.post(path, body);
      if (response.status !== 200 && response.status !== 201) {
        throw new Error(`set-up ${path}: ${response.status} ${JSON.stringify(response.body)}`);
      }
      return response.body;
    };
    ids.account = (await created('/v1/accounts', { name: 'Dono', logo: '341' })).id;
    ids.card = (
      await created('/v1/credit-cards', {
        name: 'Cartão',
        account_id: ids.account,
        closing_date: 10,
        expiring_date: 17,
        limit: 100_000,
      })
    ).id;
    ids.bill = (
      await created('/v1/transactions', {
        amount: 1000,
        date: '2026-03-05',
        is_expense: true,
        title: 'Compra',
        credit_card_id: ids.card,
      })
    ).bill_id;
    ids.category = (await created('/v1/categories', { name: 'Própria', is_expense: true })).id;
    ids.subcategory = (await created('/v1/subcategories', { name: 'Sub', category_id: ids.category })).id;
    ids.transaction = (
      await created('/v1/transactions', {
        amount: 5000,
        date: todayIn(),
        is_expense: true,
        title: 'Fornecedor',
        account_id: ids.account,
        category_id: ids.category,
        paid: false,
        type: 'PARCELLED',
        installments: 2,
      })
    ).id;
    const { job: importJob, transactionId: importedId } = await importedMerchantEntry(api, 'conn-iso');
    ids.job = importJob.id;
    ids.connection = importJob.result.connection_id;
    ids.rule = (
      await created('/v1/categorization-rules', { source_transaction_id: importedId, category_id: ids.category })
    ).rule.id;
    ids.tag = (await created('/v1/tags', { name: 'Dono' })).id;
    ids.contact = (await created('/v2/business/contacts', { name: 'Cliente' })).id;
    ids.costCenter = (await created('/v2/business/cost-centers', { name: 'Centro' })).id;
    // a limit below what the category already spent notifies at once
    ids.limit = (await created('/v1/spending-limits', { amount: 1000, category_id: ids.category })).id;
    ids.goal = (await created('/v2/goals', { title: 'Meta', amount: 100_000, deadline: '2027-06-30' })).id;
    ids.goalValue = (await created(`/v2/goals/${ids.goal}/values`, { date: '2026-03-01', value: 500 })).id;
    ids.notification = (await api.get('/v1/notifications')).body.data[0].id;
    ids.webhook = (await created('/v1/webhooks', { url: `${receiver.url}/hook`, events: ['transaction.created'] })).id;
    await created('/v1/transactions', {
      amount: 100,
      date: todayIn(),
      is_expense: true,
      title: 'Avisada',
      account_id: ids.account,
    });
    ids.delivery = await waitFor(async () => {
      const [delivery] = (await api.get(`/v1/webhooks/${ids.webhook}/deliveries`)).body.data;
      return delivery?.status === 'SUCCEEDED' && delivery.id;
    });
    for (const [name, id] of Object.entries(ids)) expect([name, id]).toEqual([name, expect.any(String)]);

    const stranger = await stack.companyClient((await stack.tenant()).userId);
    intruders = [];
    for (const [who, client, business] of [
      ['the same user in the personal context', owner.api, false],
      ["another user's company", stranger.api, true],
    ] as const) {
      const account = await client.post('/v1/accounts', { name: 'Invasor', logo: '260' });
      intruders.push({ who, api: client, accountId: account.body.id, business });
    }
    // background work of the set-up (events, inbox, notifications) settles before anything is compared
    const queues = stack.service('insights').runtime.queues;
    await waitFor(async () => {
      const [pending] = await stack.sql<{ n: number }>(
        `select (select count(*) from ledger.outbox_events where published_at is null)
           + (select count(*) from insights.outbox_events where published_at is null)::int as n`,
      );
      let busy = 0;
      for (const name of [
        QUEUES.insightsLedgerEvents,
        QUEUES.transactionChanges,
        QUEUES.webhookEvents,
        QUEUES.webhookDeliveries,
      ]) {
        const counts = await queues.get(name).getJobCounts('waiting', 'active', 'delayed');
        busy += counts.waiting + counts.active + counts.delayed;
      }
      return Number(pending.n) === 0 && busy === 0;
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  const idFor = (route: (typeof publicRoutes)[number]) => {
    const prefix = route.path.split('/:')[0];
    const byPrefix: Record<string, string> = {
      '/v1/accounts': ids.account,
      '/v1/credit-cards': ids.card,
      '/v2/bills/show-by-card': ids.card,
      '/v2/bills/closing-date/by-card': ids.card,
      '/v2/bills': ids.bill,
      '/v1/transactions': ids.transaction,
      '/v2/transactions': ids.transaction,
      '/v1/categories': ids.category,
      '/v1/subcategories': ids.subcategory,
      '/v1/categorization-rules': ids.rule,
      '/v1/tags': ids.tag,
      '/v2/business/contacts': ids.contact,
      '/v2/business/cost-centers': ids.costCenter,
      '/v1/spending-limits': ids.limit,
      '/v2/goals': ids.goal,
      '/v1/notifications': ids.notification,
      '/v1/jobs': ids.job,
      '/v1/webhooks': ids.webhook,
      '/v1/open-banking/connections': ids.connection,
    };
    const id = byPrefix[prefix];
    if (!id) throw new Error(`no record for ${routeName(route)}`);
    return route.path
      .replace(/:(id|cardId)/, id)
      .replace(':valueId', ids.goalValue)
      .replace(':deliveryId', ids.delivery);
  };

  it('when every route with an id is called by another context, then each answers 404 and no table changes', async () => {
    const before = await tableContents(stack);
    const answers: string[] = [];
    for (const route of withParams) {
      const name = routeName(route);
      const body =
        name === 'POST /v2/bills/:id/pay' || name === 'POST /v2/transactions/:id/settle'
          ? 'account'
          : (BODIES[name] ?? (route.body ? {} : undefined));
      for (const intruder of intruders) {
        // a statement file route gets a file the intruder could import into an account of its own
        const request = route.file
          ? sampleBody(route)
          : { body: body === 'account' ? { account_id: intruder.accountId } : body };
        const response = await intruder.api.request(route.method.toUpperCase(), idFor(route), request);
        answers.push(`${name} by ${intruder.who}: ${response.status} ${response.body?.error ?? ''}`);
      }
    }
    expect(answers).toEqual(
      withParams.flatMap((route) =>
        intruders.map((intruder) =>
          // a business route refuses a personal key before it looks anything up
          route.business && !intruder.business
            ? `${routeName(route)} by ${intruder.who}: 403 Forbidden`
            : `${routeName(route)} by ${intruder.who}: 404 Not Found`,
        ),
      ),
    );
    expect(await tableContents(stack)).toEqual(before);
  });

  it('when the owner reads the same ids, then each answers 200: the 404s above are isolation, not typos', async () => {
    for (const route of withParams.filter((r) => r.method === 'get')) {
      const response = await ownerApi.get(idFor(route));
      expect(`${routeName(route)}: ${response.status}`).toBe(`${routeName(route)}: 200`);
    }
  });
});
