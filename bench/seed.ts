import { addDays, addMonthsClamped, type CalendarDate, startOfMonth, todayUtc } from '@finance/shared/calendar';
import pg from 'pg';
import type { ApiClient } from '../test/support/api-client.ts';
import type { TestStack } from '../test/support/stack.ts';
import { available } from './routes.ts';
import { seedInvestments } from './seed-investments.ts';
import { seedRules } from './seed-rules.ts';
import { insertContextTransactions, insertMerchantTransactions, type Merchant } from './seed-sql.ts';

export interface SeedOptions {
  /** Total transactions over both contexts. */
  transactions: number;
  /** Company transactions of the one merchant the benchmark rule recategorizes. */
  ruleMatches: number;
  positions: number;
  snapshotDays: number;
  today?: CalendarDate;
}

export const FULL_SCALE: SeedOptions = {
  transactions: 200_000,
  ruleMatches: 100_000,
  positions: 50,
  snapshotDays: 365,
};

export interface SeededContext {
  api: ApiClient;
  userId: string;
  profileId: string | null;
  accountIds: string[];
  cardIds: string[];
  transactions: number;
}

export interface BenchRule {
  id: string;
  /** Where PATCH moves the matched rows. */
  categoryId: string;
  subcategoryId: string;
  merchantCnpjDigits: string;
}

export interface BenchData {
  personal: SeededContext;
  company: SeededContext;
  start: CalendarDate;
  today: CalendarDate;
  rules: number;
  benchRule: BenchRule | null;
  investments: { positions: number; snapshots: number; via: string } | null;
  notes: string[];
  seconds: Record<string, number>;
}

const MERCHANTS: Merchant[] = [
  { name: 'Supermercado Pão de Açúcar', cnpj: '47.508.411/0001-56', cnae: '4711302' },
  { name: 'iFood Agência de Restaurantes Online S.A.', cnpj: '14.380.200/0001-21', cnae: '7490104' },
  { name: 'Uber do Brasil Tecnologia Ltda', cnpj: '17.895.646/0001-87', cnae: '7490104' },
  { name: 'Drogasil S.A.', cnpj: '61.585.865/0001-51', cnae: '4771701' },
  { name: 'Posto Ipiranga', cnpj: '33.337.122/0001-27', cnae: '4731800' },
  { name: 'Netflix Entretenimento Brasil Ltda', cnpj: '13.590.585/0001-99', cnae: '5911199' },
  { name: 'Magazine Luiza S.A.', cnpj: '47.960.950/0001-21', cnae: '4753900' },
  { name: 'Padaria Real', cnpj: '12.345.678/0001-95', cnae: '1091102' },
  { name: 'Enel Distribuição São Paulo', cnpj: '61.695.227/0001-93', cnae: '3514000' },
  { name: 'Claro S.A.', cnpj: '40.432.544/0001-47', cnae: '6120501' },
  { name: 'Smart Fit Escola de Ginástica', cnpj: '07.594.978/0001-78', cnae: '9313100' },
  { name: 'Mercado Livre Ltda', cnpj: '03.007.331/0001-41', cnae: '4789099' },
];

/** The acquirer whose per-sale fees the company's rule recategorizes. */
export const RULE_MERCHANT: Merchant = {
  name: 'Stone Instituição de Pagamento S.A.',
  cnpj: '16.501.555/0001-57',
  cnae: '6499999',
};

// Diversos (where the fees start) and Tarifas bancárias (where the rule moves them), from the system set
export const DIVERSOS = '5c000000-0000-4000-8000-001500000001';
const TARIFAS = '5c000000-0000-4000-8000-000900000002';

async function timed<T>(seconds: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    seconds[name] = Math.round(performance.now() - started) / 1000;
  }
}

async function expectCreated(api: ApiClient, path: string, body: unknown): Promise<string> {
  const response = await api.post(path, body);
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id;
}

async function createAccounts(api: ApiClient, business: boolean): Promise<string[]> {
  const type = business ? 'BUSINESS_BANK' : 'PERSONAL_BANK';
  return [
    await expectCreated(api, '/v1/accounts', {
      name: business ? 'Itaú Empresas' : 'Nubank',
      logo: business ? '341' : '260',
      type,
    }),
    await expectCreated(api, '/v1/accounts', {
      name: business ? 'Banco do Brasil PJ' : 'Itaú',
      logo: business ? '001' : '341',
      type,
    }),
  ];
}

/** Two cards on the first account; their bills over the year are made by reading each month's bill. */
async function createCardsWithBills(api: ApiClient, accountId: string, months: CalendarDate[]): Promise<string[]> {
  const cards = [
    { name: 'Cartão Roxinho', closing_date: 3, expiring_date: 10, limit: 1_500_000 },
    { name: 'Cartão Platinum', closing_date: 25, expiring_date: 5, limit: 3_000_000 },
  ];
  const ids: string[] = [];
  for (const card of cards) ids.push(await expectCreated(api, '/v1/credit-cards', { ...card, account_id: accountId }));
  await Promise.all(
    ids.map(async (id) => {
      for (const month of months) {
        const response = await api.get(`/v2/bills/show-by-card/${id}?date=${month}`);
        if (response.status !== 200)
          throw new Error(`bill ${month}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }),
  );
  return ids;
}

/** Month starts from the one before `from` to two after `to`: every purchase date then has its bill. */
function billMonths(from: CalendarDate, to: CalendarDate): CalendarDate[] {
  const months: CalendarDate[] = [];
  for (let month = addMonthsClamped(startOfMonth(from), -1); month <= addMonthsClamped(startOfMonth(to), 2); ) {
    months.push(month);
    month = addMonthsClamped(month, 1);
  }
  return months;
}

/**
 * Two contexts (a person and a licensed company) with one year of data. Users, keys, accounts, cards,
 * bills, rules and (when the import exists) investments go through the public API; the bulk of the
 * transactions is written with set-based SQL mirroring the rows the ledger writes for imported
 * transactions (card rows in the bill that holds their date), because 200,000 API calls would take the
 * whole time budget. Outbox events for those rows are not produced.
 */
export async function seedBenchData(stack: TestStack, options: SeedOptions): Promise<BenchData> {
  const seconds: Record<string, number> = {};
  const notes: string[] = [];
  const today = options.today ?? todayUtc();
  const start = addDays(today, -364);
  const owner = await stack.tenant();
  const company = await stack.companyClient(owner.userId);
  const personalAccounts = await createAccounts(owner.api, false);
  const companyAccounts = await createAccounts(company.api, true);
  const cardsAvailable = available('createCard') && available('showBill');
  if (!cardsAvailable) notes.push('cards: card routes not available; every transaction goes to an account');
  const months = billMonths(start, today);
  const [personalCards, companyCards] = cardsAvailable
    ? await timed(seconds, 'cards_and_bills', () =>
        Promise.all([
          createCardsWithBills(owner.api, personalAccounts[0], months),
          createCardsWithBills(company.api, companyAccounts[0], months),
        ]),
      )
    : [[], []];

  const personalCount = Math.round(options.transactions * 0.4);
  const companyCount = options.transactions - personalCount;
  const ruleMatches = Math.min(options.ruleMatches, companyCount);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await timed(seconds, 'transactions_sql', async () => {
      const common = { start, days: 365, merchants: MERCHANTS };
      await insertContextTransactions(db, {
        ...common,
        userId: owner.userId,
        profileId: null,
        count: personalCount,
        accountIds: personalAccounts,
        cardIds: personalCards,
        salt: 'p',
      });
      await insertContextTransactions(db, {
        ...common,
        userId: owner.userId,
        profileId: company.profileId,
        count: companyCount - ruleMatches,
        accountIds: companyAccounts,
        cardIds: companyCards,
        salt: 'c',
      });
      const diversos = await db.query('select category_id from ledger.subcategories where id = $1', [DIVERSOS]);
      await insertMerchantTransactions(db, {
        userId: owner.userId,
        profileId: company.profileId,
        count: ruleMatches,
        accountId: companyAccounts[1],
        merchant: RULE_MERCHANT,
        categoryId: diversos.rows[0].category_id,
        subcategoryId: DIVERSOS,
        start,
        days: 365,
        salt: 's',
      });
    });
    // autovacuum would vacuum and analyze the tables soon after such a load, maybe inside a scenario's window; the
    // planner needs the statistics now, and no read should pay for the load's first visit (hint bits, visibility)
    await timed(seconds, 'vacuum', async () => {
      // one statement a query: VACUUM refuses the implicit transaction of a multi-statement query
      await db.query('vacuum (analyze) ledger.transactions');
      await db.query('vacuum (analyze) billing.bills');
    });
  } finally {
    await db.end();
  }
  notes.push(
    `transactions: ${options.transactions} written with set-based SQL into ledger.transactions (card rows with bill_id/billed_at of the bill holding their date); accounts, cards and bills through the API`,
  );

  const tarifas = await stack.sql<{ category_id: string }>(
    'select category_id from ledger.subcategories where id = $1',
    [TARIFAS],
  );
  const rules = await timed(seconds, 'rules', () =>
    seedRules(stack, {
      personal: { api: owner.api, userId: owner.userId, profileId: null },
      company: { api: company.api, userId: owner.userId, profileId: company.profileId },
      merchants: MERCHANTS,
      ruleMerchant: RULE_MERCHANT,
      target: { categoryId: tarifas[0].category_id, subcategoryId: TARIFAS },
    }),
  );
  notes.push(...rules.notes);
  const investments = await timed(seconds, 'investments', () =>
    seedInvestments(stack, {
      api: owner.api,
      userId: owner.userId,
      positions: options.positions,
      days: options.snapshotDays,
      end: today,
    }),
  );
  if (investments.note) notes.push(investments.note);

  return {
    personal: {
      api: owner.api,
      userId: owner.userId,
      profileId: null,
      accountIds: personalAccounts,
      cardIds: personalCards,
      transactions: personalCount,
    },
    company: {
      api: company.api,
      userId: owner.userId,
      profileId: company.profileId,
      accountIds: companyAccounts,
      cardIds: companyCards,
      transactions: companyCount,
    },
    start,
    today,
    rules: rules.created,
    benchRule: rules.benchRule,
    investments: investments.result,
    notes,
    seconds,
  };
}
