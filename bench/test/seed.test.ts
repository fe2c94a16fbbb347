import { TestStack } from '../../test/support/stack.ts';
import { startBaselineServer } from '../baseline-server.ts';
import { billRecordsStatements } from '../raw-sql.ts';
import { seedBenchData } from '../seed.ts';

// The benchmark's seeding at a tiny scale, so `npm run bench` does not rot; no timing is asserted.
describe('benchmark seeding', () => {
  let stack: TestStack;
  let data: Awaited<ReturnType<typeof seedBenchData>>;

  beforeAll(async () => {
    stack = await TestStack.start();
    data = await seedBenchData(stack, { transactions: 500, ruleMatches: 250, positions: 3, snapshotDays: 10 });
  });
  afterAll(() => stack?.stop());

  it('when seeded, then both contexts hold the requested transactions within one year', async () => {
    const rows = await stack.sql<{ profile_id: string | null; count: string; first: string; last: string }>(
      `select profile_id, count(*), min(date)::text as first, max(date)::text as last
       from ledger.transactions where user_id = $1 group by profile_id order by profile_id nulls first`,
      [data.personal.userId],
    );
    expect(rows.map((row) => [row.profile_id, Number(row.count)])).toEqual([
      [null, 200],
      [data.company.profileId, 300],
    ]);
    for (const row of rows) {
      expect(row.first >= data.start).toBe(true);
      expect(row.last <= data.today).toBe(true);
    }
  });

  it('when seeded, then the loaded tables are vacuumed and analyzed before any scenario reads them', async () => {
    const rows = await stack.sql<{ relname: string; vacuumed: boolean; analyzed: boolean }>(
      `select relname, last_vacuum is not null as vacuumed, last_analyze is not null as analyzed
       from pg_stat_user_tables where (schemaname, relname) in (('ledger', 'transactions'), ('billing', 'bills'))
       order by relname`,
    );
    expect(rows).toEqual([
      { relname: 'bills', vacuumed: true, analyzed: true },
      { relname: 'transactions', vacuumed: true, analyzed: true },
    ]);
    expect(data.seconds.vacuum).toBeGreaterThanOrEqual(0);
  });

  it('when seeded, then every card transaction sits in the bill whose period holds its date', async () => {
    const rows = await stack.sql<{ cards: string; misplaced: string }>(
      `select count(*) as cards,
              count(*) filter (where b.id is null or t.date >= b.closing_date or t.date < coalesce(
                (select max(p.closing_date) from billing.bills p
                 where p.credit_card_id = b.credit_card_id and p.closing_date < b.closing_date), '-infinity')
                or t.billed_at <> b.closing_date::timestamp at time zone 'UTC') as misplaced
       from ledger.transactions t left join billing.bills b on b.id = t.bill_id
       where t.user_id = $1 and t.credit_card_id is not null`,
      [data.personal.userId],
    );
    expect(Number(rows[0].cards)).toBeGreaterThan(0);
    expect(Number(rows[0].misplaced)).toBe(0);
  });

  it('when seeded, then the bill of a card answers through the gateway with its transactions', async () => {
    const month = `${data.today.slice(0, 7)}-01`;
    const response = await data.personal.api.get(`/v2/bills/show-by-card/${data.personal.cardIds[0]}?date=${month}`);
    expect(response.status).toBe(200);
    const stored = await stack.sql<{ count: string }>(
      'select count(*) from ledger.transactions where bill_id = $1 and deleted_at is null',
      [response.body.bill.id],
    );
    expect(response.body.transactions).toHaveLength(Number(stored[0].count));
  });

  it("when the bare server answers the bill's records, then they are ours: same rows, fields and order, as many bytes", async () => {
    const month = `${data.today.slice(0, 7)}-01`;
    const card = data.personal.cardIds[0];
    const ours = await data.personal.api.get(`/v2/bills/show-by-card/${card}?date=${month}`);
    expect(ours.body.transactions.length).toBeGreaterThan(0);
    const bare = await startBaselineServer(stack.databaseUrl, data.personal.userId);
    try {
      const statements = billRecordsStatements(data.personal.userId, card, ours.body.bill.id, [ours.body.bill.id]);
      const answer = await fetch(bare.serveRecords('bill-records', statements));
      const [records]: Record<string, unknown>[][] = JSON.parse(await answer.text()).data;
      const theirs: Record<string, unknown>[] = ours.body.transactions;
      expect(records.map((row) => row.id)).toEqual(theirs.map((row) => row.id));
      expect(records.map((row) => Object.keys(row))).toEqual(theirs.map((row) => Object.keys(row)));
      for (const record of ['account', 'category', 'subcategory', 'credit_card'] as const) {
        const keysOf = (rows: Record<string, unknown>[]) =>
          rows.map((row) => {
            const value = row[record];
            return value && typeof value === 'object' ? Object.keys(value) : null;
          });
        expect(keysOf(records)).toEqual(keysOf(theirs));
      }
      const size = JSON.stringify(records).length / JSON.stringify(theirs).length;
      expect(size).toBeGreaterThan(0.97);
      expect(size).toBeLessThan(1.03);
    } finally {
      await bare.stop();
    }
  });

  it('when seeded, then the rule merchant rows and the listing of the person are there', async () => {
    const rule = await stack.sql<{ count: string }>(
      "select count(*) from ledger.transactions where profile_id = $1 and merchant_cnpj = '16.501.555/0001-57'",
      [data.company.profileId],
    );
    expect(Number(rule[0].count)).toBe(250);
    const page = await data.personal.api.get(
      `/v1/transactions?limit=50&start_date=${data.start}&end_date=${data.today}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(50);
  });

  it('when seeded, then the investments have one snapshot per position and day, and the rules exist', async () => {
    expect(data.investments).toEqual(expect.objectContaining({ positions: 3, snapshots: 30 }));
    const rules = await stack.sql<{ count: string }>(
      'select count(*) from ledger.categorization_rules where user_id = $1 and deleted_at is null',
      [data.personal.userId],
    );
    expect(Number(rules[0].count)).toBe(data.rules);
    expect(data.benchRule).not.toBeNull();
  });
});
