import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkLayers, ormValueImports, sqlLiteral } from '../../scripts/layer-rules.ts';

const ROOT = resolve(__dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The exit status of dependency-cruiser as `npm run lint` runs it on `dir` (non-zero on any violation). */
const lintStatus = (dir: string) =>
  spawnSync(DEPCRUISE, ['services', 'shared', '--config', CONFIG], { cwd: dir, encoding: 'utf8' }).status;

/** Runs dependency-cruiser with the repository's config on `dir` (its services and shared); its violations. */
function cruise(dir: string): { status: number | null; violations: Violation[] } {
  const run = spawnSync(DEPCRUISE, ['services', 'shared', '--config', CONFIG, '--output-type', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return { status: run.status, violations: report.summary.violations };
}

describe('layers (npm run lint)', () => {
  let tree: string;
  const write = (path: string, source: string) => {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), source);
  };

  beforeEach(() => {
    tree = mkdtempSync(join(tmpdir(), 'layers-'));
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    mkdirSync(join(tree, 'shared'));
    write('services/billing/src/domain/bills/bill-rules.ts', 'export const days = 31;\n');
    write(
      'services/ledger/src/domain/accounts/clean.ts',
      "import type { EntityManager } from '@mikro-orm/postgresql';\nexport const clean = (em: EntityManager) => em;\n",
    );
  });
  afterEach(() => rmSync(tree, { recursive: true, force: true }));

  it('when the real tree is checked, then dependency-cruiser and the SQL check find nothing', () => {
    expect(cruise(ROOT).violations).toEqual([]);
    expect(lintStatus(ROOT)).toBe(0);
    expect(checkLayers(ROOT)).toEqual([]);
  });

  it('when a clean tree is checked, then nothing is reported', () => {
    expect(cruise(tree).violations).toEqual([]);
    expect(checkLayers(tree, [])).toEqual([]);
  });

  it('when a domain file holds SQL, then the check names it', () => {
    write(
      'services/ledger/src/domain/accounts/delete.ts',
      'export const sql = `update accounts set deleted_at = now() where id = ?`;\n',
    );
    expect(checkLayers(tree, [])).toEqual([
      expect.stringMatching(/^services\/ledger\/src\/domain\/accounts\/delete\.ts: SQL outside data-access\//),
    ]);
  });

  it('when a domain rule reads the time around the one clock, then the check names it', () => {
    write(
      'services/insights/src/domain/goals/due.ts',
      "import { now } from '@finance/shared/clock';\nexport const due = () => [now(), new Date(), Date.now(), new Date('2026-01-01')];\n",
    );
    expect(checkLayers(tree, [])).toEqual([
      'services/insights/src/domain/goals/due.ts: reads the time with new Date() (use now() of @finance/shared/clock)',
    ]);
    write('services/insights/src/domain/goals/due.ts', 'export const due = () => Date.now();\n');
    expect(checkLayers(tree, [])).toEqual([
      'services/insights/src/domain/goals/due.ts: reads the time with Date.now() (use now() of @finance/shared/clock)',
    ]);
  });

  it('when an entry point holds SQL, then the check names it', () => {
    write('services/billing/src/entry-points/jobs/worker.ts', "export const q = 'select id from bills';\n");
    expect(checkLayers(tree, [])).toEqual([
      expect.stringContaining('services/billing/src/entry-points/jobs/worker.ts'),
    ]);
  });

  it('when a service runs SQL on the connection instead of runSql, then the check names it', () => {
    write(
      'services/billing/src/data-access/raw.ts',
      "export const raw = (em: any) => em.getConnection().execute('select 1');\n",
    );
    expect(checkLayers(tree, [])).toEqual([
      expect.stringContaining('services/billing/src/data-access/raw.ts: runs SQL'),
    ]);
  });

  it('when an entry point casts a handler input, then the check names it; a typed handler passes', () => {
    write(
      'services/ledger/src/entry-points/http/tag-routes.ts',
      'export const a = (input: { body: unknown }) => create(input.body as TagInput);\n' +
        'export const b = (query: unknown) => list(query as unknown as PageQuery);\n',
    );
    write(
      'services/ledger/src/entry-points/http/account-routes.ts',
      "export const c = ({ params }: { params: { id: string } }) => get(params.id); // not 'x as Y'\n",
    );
    expect(checkLayers(tree, [])).toEqual([
      expect.stringMatching(/^services\/ledger\/src\/entry-points\/http\/tag-routes\.ts: casts a handler's input/),
    ]);
  });

  it('when a listed pending file holds no SQL any more, then the check asks to remove it from the list', () => {
    expect(checkLayers(tree, ['services/ledger/src/domain/accounts/clean.ts'])).toEqual([
      expect.stringContaining('remove it from PENDING_SQL_IN_DOMAIN'),
    ]);
  });

  it('when SQL words sit in a comment or Portuguese prose, then they are not SQL', () => {
    expect(sqlLiteral('// select from the list\n/* delete from */\nconst m = "Selecione uma conta";')).toBeNull();
    expect(sqlLiteral("const m = 'insert into x values (1)';")).toContain('insert into');
    expect(sqlLiteral('const m = `update transactions t set paid = true`;')).toContain('update transactions t set');
  });

  it('when a domain file imports an ORM value, then the check names it; a type-only import passes', () => {
    expect(ormValueImports("import type { EntityManager } from '@mikro-orm/postgresql';")).toEqual([]);
    expect(ormValueImports("import { type EntityManager } from '@mikro-orm/postgresql';")).toEqual([]);
    expect(ormValueImports("import { type EntityManager, LockMode } from '@mikro-orm/postgresql';")).toEqual([
      '@mikro-orm/postgresql',
    ]);
    write(
      'services/billing/src/domain/bills/lock.ts',
      "import { LockMode } from '@mikro-orm/core';\nexport const mode = LockMode.PESSIMISTIC_WRITE;\n",
    );
    expect(checkLayers(tree, [])).toEqual([expect.stringContaining('imports a runtime value of @mikro-orm/core')]);
  });

  it('when a domain file imports bullmq, ioredis, pg or the SQL helper, then dependency-cruiser fails', () => {
    write('services/ledger/src/domain/rules/queue.ts', "import { Queue } from 'bullmq';\nexport const q = Queue;\n");
    write('services/ledger/src/domain/rules/redis.ts', "import { Redis } from 'ioredis';\nexport const r = Redis;\n");
    write('services/ledger/src/domain/rules/pg.ts', "import pg from 'pg';\nexport const p = pg;\n");
    write(
      'services/ledger/src/domain/rules/helper.ts',
      "import { runSql } from '@finance/shared/db/sql';\nexport const run = runSql;\n",
    );
    expect(lintStatus(tree)).not.toBe(0);
    const { violations } = cruise(tree);
    expect(violations.map((v) => `${v.rule.name} ${v.from}`).sort()).toEqual([
      'domain-no-driver services/ledger/src/domain/rules/pg.ts',
      'domain-no-driver services/ledger/src/domain/rules/queue.ts',
      'domain-no-driver services/ledger/src/domain/rules/redis.ts',
      'domain-no-sql-helper services/ledger/src/domain/rules/helper.ts',
    ]);
  });

  it('when the ledger imports billing, then dependency-cruiser fails', () => {
    write(
      'services/ledger/src/domain/accounts/cards.ts',
      "import { days } from '../../../../billing/src/domain/bills/bill-rules.ts';\nexport const d = days;\n",
    );
    expect(lintStatus(tree)).not.toBe(0);
    const { violations } = cruise(tree);
    expect(violations.map((v) => `${v.rule.name} ${v.from} ${v.to}`)).toEqual([
      'no-cross-service services/ledger/src/domain/accounts/cards.ts services/billing/src/domain/bills/bill-rules.ts',
    ]);
  });

  it('when an entry point imports a repository instead of a use case, then dependency-cruiser fails', () => {
    write('services/ledger/src/data-access/account-repository.ts', 'export const find = () => null;\n');
    write(
      'services/ledger/src/entry-points/http/routes.ts',
      "import { find } from '../../data-access/account-repository.ts';\nexport const f = find;\n",
    );
    const { violations } = cruise(tree);
    expect(violations.map((v) => v.rule.name)).toEqual(['entry-points-data-access-wiring-only']);
  });

  it('when shared imports a service, then dependency-cruiser fails', () => {
    write(
      'shared/src/util.ts',
      "import { days } from '../../services/billing/src/domain/bills/bill-rules.ts';\nexport const d = days;\n",
    );
    const { violations } = cruise(tree);
    expect(violations.map((v) => v.rule.name)).toEqual(['shared-no-service']);
  });
});
