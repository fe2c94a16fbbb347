import { randomUUID } from 'node:crypto';
import { addDays, addMonthsClamped, endOfMonth, startOfMonth } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import { QUEUES, type QueueName } from '@finance/shared/queue/catalogue';
import pg from 'pg';
import type { ApiClient } from '../support/api-client.ts';
import { cloneContext, contextTables } from '../support/clone-contexts.ts';
import { importCompleted } from '../support/imports.ts';
import {
  created,
  createReadRecords,
  type ReadDates,
  type ReadIds,
  type ReadRoute,
  readRoutes,
} from '../support/read-routes.ts';
import { BRUNO_CPF, connectSandbox, syncedImport } from '../support/sandbox-bank.ts';
import { TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { writeEveryRoute } from '../support/write-routes.ts';

/** Copies of each context added before the second measurement: a statement that reads them reads 100× more. */
const COPIES = 100;
/** Entries of the account and of the card each writer deletes: a deletion must cost what these hold, not the table. */
const BULK_ENTRIES = { account: 1_500, card: 500 };
/** Every scheduled job that acts on contexts' rows: the service, its queue and the job its scheduler adds. */
const SCHEDULED = [
  ['ledger', QUEUES.recurrence, 'extend-recurrences'],
  ['billing', QUEUES.billRollover, 'bill-rollover'],
  ['insights', QUEUES.limitWindows, 'limit-windows'],
  ['insights', QUEUES.goalReminders, 'goal-reminders'],
  ['insights', QUEUES.cashFlowAlerts, 'cash-flow-alerts'],
  ['insights', QUEUES.investmentYields, 'investment-yields'],
  ['ledger', QUEUES.openBankingSync, 'open-banking.sync-all'],
] as const;
/** PostgreSQL flushes a backend's table counters at most every 10 s while it is idle. */
const STATS_FLUSH_MS = 11_000;

interface TableReads {
  seqScans: number;
  rows: number;
}

/**
 * The guard of the context key (docs/architecture.md, "One context key"): every route of the route table runs
 * against the database twice, once with its contexts alone and once after 100 copies of each are added (reads in
 * a person and its company, writes in one company before the copies and in another alike after them), and every
 * scheduled job runs again after one did the due work. With `enable_seqscan = off`, PostgreSQL scans a table whole
 * only where no index can serve a statement, so a context table scanned whole, or read 100 times more among the
 * copies, names a statement that does not filter by `context_id` through an index leading with it.
 */
describe('one context key: a context reads only its own rows, through an index', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let db: pg.Client;
  let tables: string[];
  const plans: Array<{ api: ApiClient; key: string; routes: ReadRoute[] }> = [];
  /** Two companies alike: every write route runs in the first alone, and in the second among the copies. */
  const writers: Array<{ api: ApiClient; key: string; ids: ReadIds & { webhook: string; delivery: string } }> = [];
  let cloned = false;

  /** A year of a context's entries through the API: purchases on the card, expenses, income, a series, a transfer. */
  async function seedContext(api: ApiClient, company: boolean) {
    const today = todayIn();
    const account = await created(api, '/v1/accounts', { name: 'Conta', logo: '341' });
    const savings = await created(api, '/v1/accounts', { name: 'Reserva', logo: '260' });
    const card = await created(api, '/v1/credit-cards', {
      name: 'Cartão',
      account_id: account.id,
      closing_date: 10,
      expiring_date: 17,
      limit: 500_000,
    });
    for (let month = 0; month < 12; month++) {
      // today's day of each month back (clamped): none lies ahead of today, whatever day the suite runs on
      const date = addMonthsClamped(today, -month);
      await created(api, '/v1/transactions', {
        amount: 4_590 + month,
        date,
        is_expense: true,
        title: 'Mercado',
        credit_card_id: card.id,
      });
      await created(api, '/v1/transactions', {
        amount: 12_000 + month,
        date,
        is_expense: true,
        title: 'Aluguel',
        account_id: account.id,
      });
      await created(api, '/v1/transactions', {
        amount: 500_000,
        date,
        is_expense: false,
        title: 'Salário',
        account_id: account.id,
      });
    }
    await created(api, '/v1/transactions', {
      amount: 90_000,
      date: today,
      is_expense: true,
      title: 'Notebook',
      credit_card_id: card.id,
      type: 'PARCELLED',
      installments: 3,
    });
    await created(api, '/v1/transactions', {
      amount: 3_990,
      date: addMonthsClamped(today, -3),
      is_expense: true,
      title: 'Streaming',
      account_id: account.id,
      type: 'RECURRENT',
      frequency: 'MONTHLY',
    });
    await created(api, '/v1/transactions/create-transfer', {
      amount: 10_000,
      date: today,
      sent_account_id: account.id,
      received_account_id: savings.id,
    });
    const ids = await createReadRecords(api, { account: account.id, card: card.id }, company, today);
    // 90 % of the limit spent: a warning, so every context holds a notification to read and mark, on any date
    await created(api, '/v1/transactions', {
      amount: 45_000,
      date: today,
      is_expense: true,
      title: 'Gasto do limite',
      account_id: account.id,
      category_id: ids.category,
    });
    const webhook = await created(api, '/v1/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['transaction.created'],
    });
    await created(api, '/v1/transactions', {
      amount: 1_000,
      date: today,
      is_expense: true,
      title: 'Avisada',
      account_id: account.id,
    });
    const delivery = await waitFor(
      async () => (await api.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.data[0]?.id,
    );
    await api.put('/v2/personal-config', { include_transfers: true });
    const connection = await connectSandbox(stack.url, api, { cpf: BRUNO_CPF });
    await syncedImport(api, connection.id);
    const month = startOfMonth(today);
    const dates: ReadDates = { start: addDays(today, -364), today, monthStart: month, monthEnd: endOfMonth(month) };
    const all = { ...ids, webhook: webhook.id, delivery, connection: connection.id };
    return { ids: all, routes: readRoutes(all, dates, company) };
  }

  /**
   * An imported account holding BULK_ENTRIES.account entries and its card holding BULK_ENTRIES.card, over the last
   * year: what a writer deletes, so a deletion that walks the table instead of its own rows shows among the copies.
   */
  async function bulkHolders(api: ApiClient) {
    const today = todayIn();
    const entry = (n: number, holder: { account_external_id: string } | { credit_card_external_id: string }) => ({
      external_id: `volume-${n}`,
      ...holder,
      amount: 100 + (n % 9_000),
      date: addDays(today, -(n % 365)),
      is_expense: n % 7 !== 0,
      title: `Lançamento ${n}`,
    });
    const job = await importCompleted(api, {
      connection: { id: randomUUID(), institution: 'Banco Volumoso' },
      accounts: [{ external_id: 'volume', name: 'Conta volumosa', type: 'PERSONAL_BANK', subtype: null, balance: 0 }],
      credit_cards: [
        {
          external_id: 'volume',
          name: 'Cartão volumoso',
          account_external_id: 'volume',
          closing_day: 10,
          due_day: 17,
          limit: 1,
        },
      ],
      transactions: [
        ...Array.from({ length: BULK_ENTRIES.account }, (_, n) => entry(n, { account_external_id: 'volume' })),
        ...Array.from({ length: BULK_ENTRIES.card }, (_, n) =>
          entry(BULK_ENTRIES.account + n, { credit_card_external_id: 'volume' }),
        ),
      ],
    });
    expect(job.result.transactions.created).toBe(BULK_ENTRIES.account + BULK_ENTRIES.card);
    const accounts: Array<{ id: string; name: string }> = (await api.get('/v1/accounts?limit=500')).body.data;
    const cards: Array<{ id: string; name: string }> = (await api.get('/v1/credit-cards?limit=500')).body.data;
    return {
      account: accounts.find((account) => account.name === 'Conta volumosa')?.id as string,
      card: cards.find((card) => card.name === 'Cartão volumoso')?.id as string,
    };
  }

  /** Background work of the set-up (events, inbox, notifications, deliveries) done. */
  async function settled() {
    const queues = stack.service('insights').runtime.queues;
    await waitFor(async () => {
      const [pending] = await stack.sql<{ n: number }>(
        `select ((select count(*) from ledger.outbox_events where published_at is null)
               + (select count(*) from billing.outbox_events where published_at is null)
               + (select count(*) from insights.outbox_events where published_at is null))::int as n`,
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
      return pending.n === 0 && busy === 0;
    }, 60_000);
  }

  /** Each context table's whole scans and rows read (sequentially or through its indexes) while `work` runs. */
  async function readsDuring(work: () => Promise<void>): Promise<Map<string, TableReads>> {
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    await db.query('select pg_stat_reset()');
    await work();
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    await db.query('select pg_stat_clear_snapshot()');
    const { rows } = await db.query<{ name: string; seq_scan: string; rows: string }>(
      `select t.schemaname || '.' || t.relname as name, t.seq_scan,
              t.seq_tup_read + coalesce((select sum(i.idx_tup_read) from pg_stat_user_indexes i
                                          where i.relid = t.relid), 0) as rows
         from pg_stat_user_tables t where t.schemaname || '.' || t.relname = any($1)`,
      [tables],
    );
    return new Map(rows.map((row) => [row.name, { seqScans: Number(row.seq_scan), rows: Number(row.rows) }]));
  }

  async function cloneEachContext() {
    if (cloned) return;
    for (const { key } of [...plans, ...writers]) await cloneContext(db, key, COPIES);
    cloned = true;
  }

  /** Runs a scheduled job of a service now, as its scheduler would, and waits for it to finish. */
  async function runScheduled(service: 'ledger' | 'billing' | 'insights', queue: QueueName, name: string) {
    const queues = stack.service(service).runtime.queues;
    const job = await queues.get(queue).add(name, {});
    const done = await waitFor(async () => {
      const current = await queues.get(queue).getJob(job.id as string);
      return current?.finishedOn ? current : undefined;
    }, 120_000);
    if (done.failedReason) throw new Error(`${queue}: ${done.failedReason}`);
  }

  async function runEveryScheduled() {
    for (const [service, queue, name] of SCHEDULED) await runScheduled(service, queue, name);
  }

  async function readEveryRoute() {
    for (const plan of plans)
      for (const { route, path } of plan.routes) {
        const response = await plan.api.get(path);
        if (response.status !== 200)
          throw new Error(`${route} (${path}): ${response.status} ${JSON.stringify(response.body)}`);
      }
  }

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    stack = await TestStack.start({
      databaseSettings: { enable_seqscan: 'off' },
      serviceEnv: { insights: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } },
      sandbox: true,
    });
    const person = await stack.tenant();
    const company = await stack.companyClient(person.userId);
    plans.push({ api: person.api, key: person.userId, routes: (await seedContext(person.api, false)).routes });
    plans.push({ api: company.api, key: company.profileId, routes: (await seedContext(company.api, true)).routes });
    for (let n = 0; n < 2; n++) {
      const writer = await stack.companyClient(person.userId);
      writers.push({ api: writer.api, key: writer.profileId, ids: (await seedContext(writer.api, true)).ids });
    }
    // the year's bills rolled over and announced, the reminders sent: the copies start with nothing left due
    await runEveryScheduled();
    await settled();
    db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    tables = (await contextTables(db)).map((table) => table.name);
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    await receiver?.stop();
  }, 120_000);

  it('when every route runs among 100 copies of each context, then no context table is scanned whole and none is read more', async () => {
    const today = todayIn();
    // each writer's bulk holders are made right before its run, so the copies do not multiply them
    const firstBulk = await bulkHolders(writers[0].api);
    await settled();
    const alone = await readsDuring(async () => {
      await readEveryRoute();
      await writeEveryRoute(writers[0].api, { ...writers[0].ids, bulk: firstBulk }, today, stack.url);
      await settled();
    });
    await cloneEachContext();
    const secondBulk = await bulkHolders(writers[1].api);
    await settled();
    const crowded = await readsDuring(async () => {
      await readEveryRoute();
      const calls = await writeEveryRoute(writers[1].api, { ...writers[1].ids, bulk: secondBulk }, today, stack.url);
      expect(calls.filter((call) => call.status >= 500)).toEqual([]);
      await settled();
    });
    // the bulk holders went with their entries (docs/decisions.md §7, §8)
    const [left] = await stack.sql<{ n: number }>(
      `select count(*)::int as n from ledger.transactions where deleted_at is null
          and (account_id = any($1) or credit_card_id = any($2))`,
      [
        [firstBulk.account, secondBulk.account],
        [firstBulk.card, secondBulk.card],
      ],
    );
    expect(left.n).toBe(0);

    const scanned = [...crowded]
      .filter(([, reads]) => reads.seqScans > 0)
      .map(([name, reads]) => `${name} (${reads.seqScans})`);
    const grown = [...crowded]
      .filter(([name, reads]) => reads.rows > 2 * (alone.get(name)?.rows ?? 0) + 20)
      .map(([name, reads]) => `${name}: ${alone.get(name)?.rows ?? 0} rows read alone, ${reads.rows} among the copies`);
    expect({ scanned, grown }).toEqual({ scanned: [], grown: [] });
  }, 300_000);

  it('when each scheduled run comes again right after one did the due work, then it reads almost nothing', async () => {
    await cloneEachContext();
    await runEveryScheduled();
    // what those runs wrote (occurrences, carried balances) made forecasts due through its events: that work done too
    await settled();
    await runScheduled('insights', QUEUES.cashFlowAlerts, 'cash-flow-alerts');
    const again = await readsDuring(runEveryScheduled);
    // the copies' work was done by the first runs: what a run reads now does not grow with what is stored
    const read = [...again]
      .filter(([, reads]) => reads.seqScans > 0 || reads.rows > 50)
      .map(([name, reads]) => `${name}: ${reads.rows} rows, ${reads.seqScans} whole scans`);
    expect(read).toEqual([]);
  }, 300_000);
});
