import { randomUUID } from 'node:crypto';
import { type InvestmentsImported, QUEUES } from '@finance/shared/queue/catalogue';
import type { Job } from 'bullmq';
import { userIn as userInZone } from '../../../test/support/context-day.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

type Investment = InvestmentsImported['investments'][number];

const DAYS = ['2026-03-20', '2026-03-31', '2026-04-01', '2026-04-06', '2026-04-07', '2026-04-08'];
const series = (balances: Array<number | null>) =>
  balances.flatMap((balance, i) => (balance === null ? [] : [{ date: DAYS[i], balance_cents: balance }]));

// every position of context A: present all along, missing a day, new, closed, and seen again after a gap
const INVESTMENTS: Investment[] = [
  {
    investment_id: 'inv-tesouro',
    name: 'Tesouro Selic 2029',
    bank_name: 'Banco A',
    type: 'FIXED_INCOME',
    subtype: 'TREASURY',
    snapshots: series([100_000, 100_500, 100_600, 101_000, 101_100, 101_250]),
  },
  {
    investment_id: 'inv-cdb',
    name: 'CDB Banco B',
    bank_name: 'Banco B',
    type: 'FIXED_INCOME',
    subtype: 'CDB',
    snapshots: series([50_000, 50_100, 50_110, 50_200, null, 50_300]),
  },
  {
    investment_id: 'inv-acao',
    name: 'PETR4',
    bank_name: 'Corretora C',
    type: 'EQUITY',
    subtype: 'STOCK',
    snapshots: series([null, null, null, null, 20_000, 21_000]),
  },
  {
    investment_id: 'inv-fundo',
    name: 'Fundo DI',
    bank_name: 'Banco A',
    type: 'MUTUAL_FUND',
    subtype: 'FUND',
    snapshots: series([30_000, 30_000, 30_100, 30_200, 30_300, null]),
  },
  {
    investment_id: 'inv-gap',
    name: 'Bitcoin',
    bank_name: 'Corretora C',
    type: 'CRYPTO',
    subtype: 'CRYPTO',
    snapshots: series([10_000, null, null, null, null, 10_100]),
  },
];

const period = (fields: Record<string, unknown>) => ({
  computable: true,
  yield_percent: expect.any(Number),
  ...fields,
});

describe('insights: investment snapshots from the import queue and GET /v1/investments/yield', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let other: Tenant;
  let insightsSql: string[] | null = null;

  const payloadFor = (
    userId: string,
    investments: unknown,
    profileId: string | null = null,
    backgroundJobId = randomUUID(),
  ) => ({
    background_job_id: backgroundJobId,
    context: { user_id: userId, profile_id: profileId },
    connection_id: 'conn-1',
    investments,
  });

  const settle = async (job: Job) => {
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 20_000, 50);
    return stack
      .service('insights')
      .runtime.queues.get(job.queueName as never)
      .getJob(job.id as string);
  };

  /** Adds the job exactly as the ledger's import worker does and waits for it to finish. */
  const handOver = async (payload: { background_job_id: string }) => {
    const queue = stack.service('insights').runtime.queues.get(QUEUES.investmentSnapshots);
    const job = await queue.add('investments.imported', payload, { jobId: `${payload.background_job_id}-investments` });
    return (await settle(job)) as Job;
  };

  const runDailyYields = async () => {
    const queue = stack.service('insights').runtime.queues.get(QUEUES.investmentYields);
    return (await settle(await queue.add('investment-yields', {}))) as Job;
  };

  const yieldOf = (api: Tenant['api'], query = '') => api.get(`/v1/investments/yield${query}`);

  const tableRows = () =>
    Promise.all([
      stack.sql('select * from insights.investment_positions order by id'),
      stack.sql('select * from insights.investment_snapshots order by position_id, date'),
      stack.sql('select * from insights.investment_daily_yields order by position_id, date'),
    ]);

  beforeAll(async () => {
    stack = await TestStack.start({ onQuery: (service, sql) => service === 'insights' && insightsSql?.push(sql) });
    tenant = await stack.tenant();
    other = await stack.tenant();
    const job = await handOver(payloadFor(tenant.userId, INVESTMENTS));
    expect(await job.getState()).toBe('completed');
    expect(job.returnvalue).toEqual({ positions: 5, snapshots: 20 });
  });
  afterAll(() => stack?.stop());

  it('when the import hands over positions, then positions, snapshots and daily yields are stored in the context', async () => {
    const positions = await stack.sql<{ investment_id: string; user_id: string; profile_id: string | null }>(
      'select investment_id, user_id, profile_id, connection_id, subtype from insights.investment_positions order by investment_id',
    );
    expect(positions.map((p) => p.investment_id)).toEqual([
      'inv-acao',
      'inv-cdb',
      'inv-fundo',
      'inv-gap',
      'inv-tesouro',
    ]);
    expect(positions.every((p) => p.user_id === tenant.userId && p.profile_id === null)).toBe(true);
    const [{ count }] = await stack.sql('select count(*)::int as count from insights.investment_snapshots');
    expect(count).toBe(20);
    const yields = await stack.sql<{ date: string; previous_date: string; yield_cents: string; balance_cents: string }>(
      `select to_char(y.date, 'YYYY-MM-DD') as date, to_char(y.previous_date, 'YYYY-MM-DD') as previous_date,
              y.yield_cents, y.balance_cents
         from insights.investment_daily_yields y join insights.investment_positions p on p.id = y.position_id
        where p.investment_id = 'inv-cdb' order by y.date`,
    );
    expect(yields).toEqual([
      { date: '2026-03-31', previous_date: '2026-03-20', yield_cents: '100', balance_cents: '50100' },
      { date: '2026-04-01', previous_date: '2026-03-31', yield_cents: '10', balance_cents: '50110' },
      { date: '2026-04-06', previous_date: '2026-04-01', yield_cents: '90', balance_cents: '50200' },
      { date: '2026-04-08', previous_date: '2026-04-06', yield_cents: '100', balance_cents: '50300' },
    ]);
    const [{ total }] = await stack.sql('select count(*)::int as total from insights.investment_daily_yields');
    expect(total).toBe(15);
  });

  it('when the report is read on the latest day, then every field follows the snapshots (new, closed, missing positions)', async () => {
    const response = await yieldOf(tenant.api, '?date=2026-04-08');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      available: true,
      reason: '',
      by_type: [
        { label: 'Renda fixa', balance_cents: 151_550, yield_cents: 150 },
        { label: 'Ações', balance_cents: 21_000, yield_cents: 1_000 },
        { label: 'Criptoativos', balance_cents: 10_100, yield_cents: 0 },
      ],
      positions: [
        {
          investment_id: 'inv-tesouro',
          name: 'Tesouro Selic 2029',
          bank_name: 'Banco A',
          label: 'Renda fixa',
          type: 'FIXED_INCOME',
          subtype: 'TREASURY',
          basis: 'snapshot',
          balance_cents: 101_250,
          yield_cents: 150,
          yield_percent: 0.15,
        },
        expect.objectContaining({ investment_id: 'inv-cdb', balance_cents: 50_300, yield_cents: 0, yield_percent: 0 }),
        expect.objectContaining({
          investment_id: 'inv-acao',
          label: 'Ações',
          balance_cents: 21_000,
          yield_cents: 1_000,
          yield_percent: 5,
        }),
        expect.objectContaining({
          investment_id: 'inv-gap',
          label: 'Criptoativos',
          balance_cents: 10_100,
          yield_cents: 0,
        }),
      ],
      // today: Tesouro and PETR4 computed; CDB (missing the day before) and Bitcoin new; Fundo DI closed
      today: {
        computable: true,
        coverage_percent: 40,
        from_date: '2026-04-07',
        to_date: '2026-04-08',
        interval_days: 1,
        label: 'Hoje',
        yield_cents: 1_150,
        yield_percent: 0.95,
        items_missing: 3,
        positions_closed: 1,
        positions_computed: 2,
        positions_new: 2,
        positions_total: 5,
        positions_unknown: 0,
      },
      // previous: CDB closed on 04-07, PETR4 new, Bitcoin alive across it with neither end: unknown
      previous: {
        computable: true,
        coverage_percent: 40,
        from_date: '2026-04-06',
        to_date: '2026-04-07',
        interval_days: 1,
        label: 'Anterior',
        yield_cents: 200,
        yield_percent: 0.15,
        items_missing: 3,
        positions_closed: 1,
        positions_computed: 2,
        positions_new: 1,
        positions_total: 5,
        positions_unknown: 1,
      },
      last_7_days: period({
        coverage_percent: 40,
        from_date: '2026-04-01',
        to_date: '2026-04-08',
        interval_days: 7,
        label: 'Últimos 7 dias',
        yield_cents: 840,
        yield_percent: 0.56,
        items_missing: 3,
        positions_closed: 1,
        positions_computed: 2,
        positions_new: 2,
        positions_total: 5,
        positions_unknown: 0,
      }),
      month_to_date: period({
        coverage_percent: 40,
        from_date: '2026-03-31',
        to_date: '2026-04-08',
        interval_days: 8,
        label: 'Mês atual',
        yield_cents: 950,
        yield_percent: 0.63,
        items_missing: 3,
        positions_closed: 1,
        positions_computed: 2,
        positions_new: 2,
        positions_total: 5,
        positions_unknown: 0,
      }),
      estimated_ready_date: '2026-03-31',
      first_snapshot_date: '2026-03-20',
      latest_snapshot_date: '2026-04-08',
      snapshot_days: 6,
      total_balance_cents: 182_650,
    });
  });

  it('when the report is read, then it runs two queries for the context whatever the history', async () => {
    insightsSql = [];
    const response = await yieldOf(tenant.api, '?date=2026-04-08');
    const reads = insightsSql.filter((sql) => /investment_/.test(sql));
    insightsSql = null;
    expect(response.status).toBe(200);
    expect(reads).toHaveLength(2);
  });

  it('when the reference date is in the past, then later snapshots are ignored', async () => {
    const response = await yieldOf(tenant.api, '?date=2026-04-06');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      available: true,
      snapshot_days: 4,
      first_snapshot_date: '2026-03-20',
      latest_snapshot_date: '2026-04-06',
      estimated_ready_date: '2026-03-31',
      total_balance_cents: 181_400,
      // Bitcoin was last seen on 03-20, before the period: not part of it
      today: {
        from_date: '2026-04-01',
        to_date: '2026-04-06',
        interval_days: 5,
        yield_cents: 590,
        positions_computed: 3,
        positions_total: 3,
        items_missing: 0,
        coverage_percent: 100,
      },
      previous: { from_date: '2026-03-31', to_date: '2026-04-01', yield_cents: 210, positions_computed: 3 },
    });
    expect(response.body.positions.map((p: { investment_id: string }) => p.investment_id)).toEqual([
      'inv-tesouro',
      'inv-cdb',
      'inv-fundo',
    ]);
  });

  it('when only two snapshot days exist, then the report is available and the previous period is not computable', async () => {
    const response = await yieldOf(tenant.api, '?date=2026-03-31');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      available: true,
      reason: '',
      snapshot_days: 2,
      estimated_ready_date: '2026-03-31',
      today: { computable: true, from_date: '2026-03-20', to_date: '2026-03-31', interval_days: 11, yield_cents: 600 },
      previous: {
        computable: false,
        from_date: null,
        to_date: '2026-03-20',
        interval_days: 0,
        positions_total: 0,
        coverage_percent: 0,
      },
    });
  });

  it('when only one snapshot day exists, then it is unavailable with a reason and ready the day after', async () => {
    const response = await yieldOf(tenant.api, '?date=2026-03-25');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      available: false,
      reason: expect.stringContaining('pelo menos 2 dias'),
      snapshot_days: 1,
      estimated_ready_date: '2026-03-21',
      first_snapshot_date: '2026-03-20',
      latest_snapshot_date: '2026-03-20',
      total_balance_cents: 190_000,
      today: { computable: false, from_date: null, to_date: '2026-03-20', positions_total: 0 },
    });
  });

  it('when no snapshot exists by the reference date, then it is unavailable and ready the day after that date', async () => {
    const response = await yieldOf(tenant.api, '?date=2026-03-01');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      available: false,
      reason: expect.stringContaining('Ainda não há snapshots'),
      snapshot_days: 0,
      estimated_ready_date: '2026-03-02',
      first_snapshot_date: null,
      latest_snapshot_date: null,
      total_balance_cents: 0,
      positions: [],
      by_type: [],
    });
    for (const key of ['today', 'previous', 'last_7_days', 'month_to_date']) {
      expect(response.body[key]).toMatchObject({
        computable: false,
        from_date: null,
        to_date: null,
        positions_total: 0,
      });
    }
  });

  it('when no date is given, then today (UTC) is the reference date and every snapshot counts', async () => {
    const response = await yieldOf(tenant.api);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ snapshot_days: 6, latest_snapshot_date: '2026-04-08' });
  });

  it('when limit is 1 or 50, then at most that many positions are listed, largest first', async () => {
    const one = await yieldOf(tenant.api, '?date=2026-04-08&limit=1');
    expect(one.status).toBe(200);
    expect(one.body.positions.map((p: { investment_id: string }) => p.investment_id)).toEqual(['inv-tesouro']);
    // the limit trims only the list: totals still cover every position
    expect(one.body.total_balance_cents).toBe(182_650);
    const fifty = await yieldOf(tenant.api, '?date=2026-04-08&limit=50');
    expect(fifty.status).toBe(200);
    expect(fifty.body.positions).toHaveLength(4);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=51', 'limit'],
    ['limit=abc', 'limit'],
    ['date=2026-02-30', 'date'],
    ['date=08-04-2026', 'date'],
  ])('when %s, then 400 with details', async (query, field) => {
    const response = await yieldOf(tenant.api, `?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(response.body.message).toMatch(/inválid/i);
  });

  it.each([
    ['a context without snapshots', '9999-12-31'],
    ['a context with snapshots', '0001-01-10'],
    ['a context with snapshots', '1899-12-31'],
    ['a context with snapshots', '3000-01-01'],
  ])('when %s asks with date=%s (outside 1900–2999), then 400 with details, never 500', async (who, date) => {
    const api = who.includes('without') ? other.api : tenant.api;
    const response = await yieldOf(api, `?date=${date}`);
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([
      { field: 'date', message: 'date deve estar entre 1900-01-01 e 2999-12-31' },
    ]);
  });

  it('when the OpenAPI document is read, then it documents the report with its query and schema', async () => {
    const doc = (await stack.client().get('/openapi.json')).body;
    const operation = doc.paths['/v1/investments/yield']?.get;
    expect(operation).toBeDefined();
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['date', 'limit']);
    // named records are component schemas: follow the $refs
    const resolve = (ref: { $ref?: string }) =>
      ref.$ref ? doc.components.schemas[ref.$ref.replace('#/components/schemas/', '')] : ref;
    const schema = resolve(operation.responses['200'].content['application/json'].schema);
    expect(schema.required.sort()).toEqual(
      [
        'available',
        'reason',
        'by_type',
        'positions',
        'today',
        'previous',
        'last_7_days',
        'month_to_date',
        'estimated_ready_date',
        'first_snapshot_date',
        'latest_snapshot_date',
        'snapshot_days',
        'total_balance_cents',
      ].sort(),
    );
    expect(resolve(schema.properties.today).required).toHaveLength(14);
    expect(resolve(schema.properties.positions.items).required).toHaveLength(10);
  });

  it('when a read-only key asks, then it reads the report', async () => {
    const response = await yieldOf(tenant.readOnly, '?date=2026-04-08');
    expect(response.status).toBe(200);
    expect(response.body.snapshot_days).toBe(6);
  });

  it('when another context imports the same investment ids, then each context sees only its own positions', async () => {
    expect((await yieldOf(other.api, '?date=2026-04-08')).body).toMatchObject({ available: false, snapshot_days: 0 });
    const company = await stack.companyClient(tenant.userId);
    expect((await yieldOf(company.api, '?date=2026-04-08')).body).toMatchObject({ snapshot_days: 0, positions: [] });

    const job = await handOver(
      payloadFor(
        tenant.userId,
        [{ ...INVESTMENTS[0], name: 'Tesouro da empresa', snapshots: [{ date: '2026-04-08', balance_cents: 7 }] }],
        company.profileId,
      ),
    );
    expect(await job.getState()).toBe('completed');
    const companyReport = (await yieldOf(company.api, '?date=2026-04-08')).body;
    expect(companyReport).toMatchObject({ snapshot_days: 1, total_balance_cents: 7 });
    expect(companyReport.positions).toEqual([expect.objectContaining({ name: 'Tesouro da empresa' })]);
    const personal = (await yieldOf(tenant.api, '?date=2026-04-08')).body;
    expect(personal).toMatchObject({ total_balance_cents: 182_650 });
    expect(personal.positions[0]).toMatchObject({ name: 'Tesouro Selic 2029', balance_cents: 101_250 });
  });

  it('when the same investments are handed over again, then nothing changes', async () => {
    const before = await tableRows();
    const job = await handOver(payloadFor(tenant.userId, INVESTMENTS));
    expect(await job.getState()).toBe('completed');
    expect(await tableRows()).toEqual(before);
  });

  it('when a payload is poisoned, then the job fails at once with a clear reason and nothing of it is written', async () => {
    const victim = await stack.tenant();
    const before = await tableRows();
    const bad = [INVESTMENTS[0], { ...INVESTMENTS[1], snapshots: [{ date: '2026-02-30', balance_cents: 1 }] }];
    const job = await handOver(payloadFor(victim.userId, bad));
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('payload investments.imported inválido');
    expect(job.failedReason).toContain('date');
    expect(await tableRows()).toEqual(before);
    expect((await yieldOf(victim.api, '?date=2026-04-08')).body.snapshot_days).toBe(0);

    const noContext = await handOver({ background_job_id: randomUUID(), investments: [] } as never);
    expect(await noContext.getState()).toBe('failed');
    expect(noContext.failedReason).toContain('context');
  });

  it('when the daily materialization runs twice over positions whose snapshots lack their yields, then each missing daily yield is created once', async () => {
    const queue = stack.service('insights').runtime.queues.get(QUEUES.investmentYields);
    expect(await queue.getJobScheduler('daily-investment-yields')).toMatchObject({ pattern: '0 4 * * *' });
    const expected = await stack.sql(
      'select position_id, date, yield_cents, previous_date, balance_cents from insights.investment_daily_yields order by 1, 2',
    );
    expect(expected).toHaveLength(15);
    // snapshots written without their yields (a writer other than the import marks the positions pending)
    await stack.sql('delete from insights.investment_daily_yields');
    await stack.sql('update insights.investment_positions set yields_pending = true');

    const first = await runDailyYields();
    expect(first.returnvalue).toEqual({ inserted: 15 });
    const second = await runDailyYields();
    expect(second.returnvalue).toEqual({ inserted: 0 });
    const rows = await stack.sql(
      'select position_id, date, yield_cents, previous_date, balance_cents from insights.investment_daily_yields order by 1, 2',
    );
    expect(rows).toEqual(expected);
  });

  describe('the context time zone', () => {
    afterEach(() => stack.setNow(null));
    const userIn = (zone: string | null) => userInZone(stack, zone);

    it('when the clock passes local midnight, then the yield report default date turns, an hour later in Manaus', async () => {
      const paulista = await userIn(null);
      const manauara = await userIn('America/Manaus');
      const readyDate = async (api: Tenant['api']) => {
        const response = await api.get('/v1/investments/yield');
        expect(response.status).toBe(200);
        // without snapshots the report is ready the day after its reference date (default: today)
        return response.body.estimated_ready_date;
      };
      stack.setNow('2026-03-17T23:30:00-03:00');
      expect(await readyDate(paulista.api)).toBe('2026-03-18');
      stack.setNow('2026-03-18T00:30:00-03:00');
      expect(await readyDate(paulista.api)).toBe('2026-03-19');
      expect(await readyDate(manauara.api)).toBe('2026-03-18');
      stack.setNow('2026-03-18T01:30:00-03:00');
      expect(await readyDate(manauara.api)).toBe('2026-03-19');
    });
  });
});
