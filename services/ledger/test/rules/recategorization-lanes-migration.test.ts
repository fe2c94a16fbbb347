import { randomBytes } from 'node:crypto';
import { closeOrm, initOrm, migrateSchema } from '@finance/shared/db/orm';
import { OutboxEventSchema } from '@finance/shared/queue/outbox';
import { DEFAULT_DATABASE_URL, dropDatabase, testDatabaseName, withDatabase } from '@finance/shared/testing/servers';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { referenceEntities } from '../../src/data-access/entities/reference-entities.ts';
import { ledgerMigrations } from '../../src/data-access/migrations/index.ts';
import { recategorizeHistory } from '../../src/domain/rules/recategorize-history.ts';

const USER = '0190a1b2-0000-7000-8000-000000000001';
const ACCOUNT = '0190a1b2-0000-7000-8000-0000000000ac';
const MORADIA = 'c0000000-0000-4000-8000-000000000002';
const RUNNING = '0190a1b2-0000-7000-8000-0000000000a1';
const FINISHED = '0190a1b2-0000-7000-8000-0000000000a2';
/** Ten matching rows in id order; the run stopped after the fourth. */
const IDS = Array.from({ length: 10 }, (_, i) => `0190a1b2-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`);

describe('migration 0019: a recategorization run recorded before lanes existed', () => {
  const databaseUrl = withDatabase(
    process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    testDatabaseName(randomBytes(6).toString('hex')),
  );
  const lanesAt = ledgerMigrations.findIndex((migration) => migration.name === '0019-recategorization-lanes');
  let orm: MikroORM | undefined;
  const open = async (migrations: typeof ledgerMigrations) => {
    orm = await initOrm({
      schema: 'ledger',
      clientUrl: databaseUrl,
      entities: [OutboxEventSchema, ...referenceEntities],
      migrations,
    });
    await migrateSchema(orm, databaseUrl, 'ledger');
    return orm;
  };
  afterAll(async () => {
    if (orm) await closeOrm(orm);
    if (!process.env.TEST_RUN_ID) await dropDatabase(databaseUrl);
  });

  it('when the migration runs under a half-done run, then the run goes on from its cursor as one lane and finishes exactly', async () => {
    const before = await open(ledgerMigrations.slice(0, lanesAt));
    const sql = (text: string, params: unknown[] = []) => before.em.getConnection().execute(text, params);
    await sql(
      `insert into accounts (id, user_id, name, logo, created_at, updated_at)
       values (?, ?, 'Conta', '341', now(), now())`,
      [ACCOUNT, USER],
    );
    await sql(
      `insert into transactions (id, user_id, account_id, amount, date, title, is_expense, paid, type, installments,
         currency, merchant_name, created_at, updated_at)
       select id, ?, ?, 100, date '2025-01-01', 'Compra', true, true, 'FIXED', 1, 'BRL', 'Mega Loja', now(), now()
       from unnest(?::uuid[]) as ids(id)`,
      [USER, ACCOUNT, `{${IDS.join(',')}}`],
    );
    // the rows up to the cursor were changed by the batches before the upgrade
    await sql('update transactions set category_id = ? where id <= ?', [MORADIA, IDS[3]]);
    await sql(
      `insert into background_jobs (id, user_id, kind, state, progress, created_at, updated_at)
       values (?, ?, 'RECATEGORIZATION', 'active', 40, now(), now())`,
      [RUNNING, USER],
    );
    await sql(
      `insert into recategorization_runs (job_id, rule_id, user_id, is_expense, match_merchant_name, category_id,
         total, scanned, changed, cursor_id, finished_at)
       values (?, gen_random_uuid(), ?, true, 'mega loja', ?, 10, 4, 4, ?, null),
              (?, gen_random_uuid(), ?, true, 'mega loja', ?, 10, 10, 10, ?, now())`,
      [RUNNING, USER, MORADIA, IDS[3], FINISHED, USER, MORADIA, IDS[9]],
    );
    await closeOrm(before);

    const after = await open(ledgerMigrations);
    const lanes = await after.em
      .getConnection()
      .execute(
        'select job_id, lane, cursor_id, upper_id, finished_at is not null as finished from recategorization_lanes order by job_id',
      );
    expect(lanes).toEqual([
      { job_id: RUNNING, lane: 0, cursor_id: IDS[3], upper_id: null, finished: false },
      { job_id: FINISHED, lane: 0, cursor_id: IDS[9], upper_id: null, finished: true },
    ]);

    const em = after.em.fork() as EntityManager;
    expect(await recategorizeHistory(em, RUNNING, { batchSize: 4 })).toEqual({ updated_count: 10 });
    expect(await recategorizeHistory(em, FINISHED)).toEqual({ updated_count: 10 });
    const connection = after.em.getConnection();
    // resumed after the cursor: the six rows left were scanned once, the first four not again
    expect(
      await connection.execute('select scanned, changed from recategorization_runs where job_id = ?', [RUNNING]),
    ).toEqual([{ scanned: 10, changed: 10 }]);
    expect(
      await connection.execute('select count(*)::int as moved from transactions where category_id = ?', [MORADIA]),
    ).toEqual([{ moved: 10 }]);
    expect(await connection.execute('select state, result from background_jobs where id = ?', [RUNNING])).toEqual([
      { state: 'completed', result: { updated_count: 10 } },
    ]);
  }, 60_000);
});
