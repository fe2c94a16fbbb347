import { randomUUID } from 'node:crypto';
import { addDays, addMonthsClamped, type CalendarDate } from '@finance/shared/calendar';
import { publicRoutes } from '@finance/shared/contracts/index';
import type { ApiClient } from './api-client.ts';
import { waitFor } from './wait-for.ts';

/** A context's records that the read routes take in their paths. */
export interface ReadIds {
  account: string;
  card: string;
  transaction: string;
  category: string;
  subcategory: string;
  rule: string;
  tag: string;
  limit: string;
  goal: string;
  job: string;
  webhook?: string;
  /** A connection to an institution (Banco Sandbox). */
  connection?: string;
  contact?: string;
  costCenter?: string;
}

export interface ReadDates {
  /** First day of the year of data, and the context's today. */
  start: string;
  today: string;
  /** A month with data: first and last day. */
  monthStart: string;
  monthEnd: string;
}

export interface ReadRoute {
  /** `GET /v1/accounts/:id`, as the route table names it. */
  route: string;
  path: string;
}

type Route = (typeof publicRoutes)[number];
const nameOf = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * Every GET route of the route table as a context calls it, with its own records in the path and a query that
 * reads what it holds (reports over the year, lists over a month). Business routes only for a company context;
 * public ones (an institution's callback) are not a context's reads: `writeEveryRoute` drives them.
 * Throws naming a GET route this table does not know, so a new read route joins what reads are measured on.
 */
export function readRoutes(ids: ReadIds, dates: ReadDates, company: boolean): ReadRoute[] {
  const month = `start_date=${dates.monthStart}&end_date=${dates.monthEnd}`;
  const year = `start_date=${dates.start}&end_date=${dates.today}`;
  const paths: Record<string, string | undefined> = {
    'GET /v1/accounts': '/v1/accounts',
    'GET /v1/accounts/:id': `/v1/accounts/${ids.account}`,
    'GET /v1/banks': '/v1/banks',
    'GET /v1/credit-cards': '/v1/credit-cards',
    'GET /v1/credit-cards/:id': `/v1/credit-cards/${ids.card}`,
    'GET /v2/bills/show-by-card/:cardId': `/v2/bills/show-by-card/${ids.card}?date=${dates.monthStart}`,
    'GET /v2/bills/show-by-card/:cardId/transactions': `/v2/bills/show-by-card/${ids.card}/transactions?date=${dates.monthStart}`,
    'GET /v1/transactions': `/v1/transactions?limit=50&${month}`,
    'GET /v1/transactions/:id': `/v1/transactions/${ids.transaction}`,
    'GET /v1/transactions/:id/splits': `/v1/transactions/${ids.transaction}/splits`,
    'GET /v1/categories': '/v1/categories',
    'GET /v1/categories/:id': `/v1/categories/${ids.category}`,
    'GET /v1/subcategories': '/v1/subcategories',
    'GET /v1/subcategories/:id': `/v1/subcategories/${ids.subcategory}`,
    'GET /v1/categorization-rules': '/v1/categorization-rules',
    'GET /v1/categorization-rules/:id': `/v1/categorization-rules/${ids.rule}`,
    'GET /v1/tags': '/v1/tags',
    'GET /v1/tags/:id': `/v1/tags/${ids.tag}`,
    'GET /v2/personal-config': '/v2/personal-config',
    'GET /v2/business/contacts': '/v2/business/contacts',
    'GET /v2/business/contacts/:id': ids.contact && `/v2/business/contacts/${ids.contact}`,
    'GET /v2/business/cost-centers': '/v2/business/cost-centers',
    'GET /v2/business/cost-centers/:id': ids.costCenter && `/v2/business/cost-centers/${ids.costCenter}`,
    'GET /v2/business/dre-mapping': '/v2/business/dre-mapping',
    'GET /v2/business/dre': `/v2/business/dre?${year}`,
    'GET /v1/spending-limits': '/v1/spending-limits',
    'GET /v1/spending-limits/:id': `/v1/spending-limits/${ids.limit}`,
    'GET /v2/goals': '/v2/goals',
    'GET /v2/goals/:id': `/v2/goals/${ids.goal}`,
    'GET /v1/notifications': '/v1/notifications',
    'GET /v1/reports/subcategory-details': `/v1/reports/subcategory-details?${year}`,
    'GET /v1/reports/summary': `/v1/reports/summary?${month}`,
    'GET /v1/reports/cash-flow': `/v1/reports/cash-flow?end_date=${addDays(dates.today, 365)}`,
    'GET /v1/investments/yield': `/v1/investments/yield?date=${dates.today}&limit=20`,
    'GET /v1/webhooks': '/v1/webhooks',
    'GET /v1/webhooks/:id': ids.webhook && `/v1/webhooks/${ids.webhook}`,
    'GET /v1/webhooks/:id/deliveries': ids.webhook && `/v1/webhooks/${ids.webhook}/deliveries`,
    'GET /v1/jobs/:id': `/v1/jobs/${ids.job}`,
    'GET /v1/open-banking/connections': '/v1/open-banking/connections',
    'GET /v1/reconciliation/suggestions': '/v1/reconciliation/suggestions',
    'GET /v1/open-banking/institutions': '/v1/open-banking/institutions',
    'GET /v1/open-banking/connections/:id': ids.connection && `/v1/open-banking/connections/${ids.connection}`,
  };
  const reads = publicRoutes.filter((route) => route.method === 'get' && !route.public && (company || !route.business));
  const unknown = reads.map(nameOf).filter((name) => !(name in paths));
  if (unknown.length) throw new Error(`readRoutes: no path for ${unknown.join(', ')}`);
  return reads.flatMap((route) => {
    const path = paths[nameOf(route)];
    return path ? [{ route: nameOf(route), path }] : [];
  });
}

/** The body of a 200/201/202 answer to a POST, or an error naming the path and the answer. */
export async function created(
  api: ApiClient,
  path: string,
  body: unknown,
): Promise<{ id: string } & Record<string, any>> {
  const response = await api.post(path, body);
  if (response.status !== 201 && response.status !== 200 && response.status !== 202)
    throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * One of each record a read route takes in its path, through the API, in a context that already has an account,
 * a card and transactions: a category with a subcategory, a tag, a rule, a limit, a goal with a value and a
 * reminder, an import job with two investments; a company's contact and cost center too.
 */
export async function createReadRecords(
  api: ApiClient,
  base: { account: string; card: string },
  company: boolean,
  today: CalendarDate,
): Promise<ReadIds> {
  const category = await created(api, '/v1/categories', {
    name: `Própria ${randomUUID().slice(0, 8)}`,
    is_expense: true,
  });
  const subcategory = await created(api, '/v1/subcategories', { name: 'Sub', category_id: category.id });
  const tag = await created(api, '/v1/tags', { name: `Etiqueta ${randomUUID().slice(0, 8)}` });
  // a rule starts from an entry with a merchant, which only a bank's import brings
  const bankAccount = `Conta do banco ${randomUUID().slice(0, 8)}`;
  const accepted = await created(api, '/v1/open-banking/imports', {
    connection: { id: randomUUID(), institution: 'Banco' },
    accounts: [{ external_id: 'conta', name: bankAccount, type: 'PERSONAL_BANK', subtype: null, balance: 0 }],
    transactions: [
      {
        external_id: 'padaria',
        account_external_id: 'conta',
        amount: 1_250,
        date: today,
        is_expense: true,
        title: 'Padaria do Bairro',
        merchant_name: 'Padaria do Bairro',
      },
    ],
    investments: ['CDB', 'TESOURO'].map((name, n) => ({
      investment_id: `${name.toLowerCase()}-${n}`,
      name,
      bank_name: 'Banco',
      type: 'FIXED_INCOME',
      subtype: name === 'CDB' ? 'CDB' : 'TREASURY',
      snapshots: [5, 4, 3, 2, 1, 0].map((days) => ({
        date: addDays(today, -days),
        balance_cents: 100_000 + 40 * (5 - days),
      })),
    })),
  });
  const job = await waitFor(async () => {
    const current = (await api.get(`/v1/jobs/${accepted.job.id}`)).body;
    if (current.state === 'failed') throw new Error(`import failed: ${JSON.stringify(current)}`);
    return current.state === 'completed' && current;
  }, 30_000);
  // through its account: the context may hold more than a page of entries dated today
  const accounts: Array<{ id: string; name: string }> = (await api.get('/v1/accounts?limit=500')).body.data;
  const account = accounts.find((candidate) => candidate.name === bankAccount);
  const [source] = (await api.get(`/v1/transactions?account_id=${account?.id}&limit=500`)).body.data;
  const rule = await created(api, '/v1/categorization-rules', {
    source_transaction_id: source.id,
    category_id: category.id,
  });
  const limit = await created(api, '/v1/spending-limits', { amount: 50_000, category_id: category.id });
  const goal = await created(api, '/v2/goals', {
    title: 'Reserva',
    amount: 1_000_000,
    deadline: addDays(today, 365),
    // its day is today's (clamped), so this month's reminder is due whatever day it is: a notification exists
    reminder: { amount: 10_000, frequency: 'MONTHLY', start_date: addMonthsClamped(today, -1) },
  });
  await created(api, `/v2/goals/${goal.id}/values`, { date: today, value: 10_000 });
  const ids: ReadIds = {
    ...base,
    transaction: source.id,
    category: category.id,
    subcategory: subcategory.id,
    rule: rule.rule.id,
    tag: tag.id,
    limit: limit.id,
    goal: goal.id,
    job: job.id,
  };
  if (company) {
    ids.contact = (await created(api, '/v2/business/contacts', { name: 'Cliente' })).id;
    ids.costCenter = (await created(api, '/v2/business/cost-centers', { name: 'Centro' })).id;
  }
  return ids;
}
