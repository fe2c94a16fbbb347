import { sweepAnswers } from '@finance/shared/db/idempotency-records';
import pg from 'pg';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { newAccount } from '../../../test/support/transactions.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

const REUSED = {
  message: 'Chave de idempotência reutilizada com outra requisição',
  statusCode: 409,
  error: 'Conflict',
};
const IN_FLIGHT = 'Requisição com esta chave de idempotência ainda em andamento';

describe('gateway: Idempotency-Key on writes', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;
  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = await newAccount(tenant.api);
  });
  afterAll(() => stack?.stop());

  const transaction = (title: string) => ({
    amount: 4590,
    date: '2026-03-10',
    is_expense: true,
    title,
    account_id: accountId,
  });
  const send = (api: ApiClient, key: string, body: unknown, method = 'POST', path = '/v1/transactions') =>
    api.request(method, path, { body, headers: { 'idempotency-key': key } });
  const rowsTitled = async (title: string) =>
    (await stack.sql<{ n: number }>('select count(*)::int as n from ledger.transactions where title = $1', [title]))[0]
      .n;

  it('when a write is repeated with the same key, then the stored answer is replayed and one row exists', async () => {
    const body = transaction('Idem replay');
    const first = await send(tenant.api, 'replay-1', body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send(tenant.api, 'replay-1', body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(again.body).toEqual(first.body);
    expect(again.body.id).toBe(first.body.id);
    expect(await rowsTitled('Idem replay')).toBe(1);
    const stored = await stack.sql('select id from ledger.transactions where title = $1', ['Idem replay']);
    expect(stored[0].id).toBe(first.body.id);
  });

  it('when the same key comes with another body, then 409 and nothing is written', async () => {
    expect((await send(tenant.api, 'reuse-1', transaction('Idem original'))).status).toBe(201);
    const other = await send(tenant.api, 'reuse-1', transaction('Idem outro corpo'));
    expect(other.status).toBe(409);
    expect(other.body).toEqual(REUSED);
    expect(await rowsTitled('Idem outro corpo')).toBe(0);
    const otherPath = await send(tenant.api, 'reuse-1', { name: 'Conta idem', logo: '341' }, 'POST', '/v1/accounts');
    expect(otherPath.status).toBe(409);
    expect(otherPath.body).toEqual(REUSED);
    expect(await rowsTitled('Idem original')).toBe(1);
  });

  it('when five duplicates arrive at once, then exactly one row is created and the others replay or are in flight', async () => {
    const body = transaction('Idem concorrente');
    const responses = await Promise.all(Array.from({ length: 5 }, () => send(tenant.api, 'concurrent-1', body)));
    const created = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(created).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) expect(response.body.id).toBe(created[0].body.id);
      else expect(response).toMatchObject({ status: 409, body: { message: IN_FLIGHT, statusCode: 409 } });
    }
    expect(await rowsTitled('Idem concorrente')).toBe(1);
    const later = await send(tenant.api, 'concurrent-1', body);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body.id).toBe(created[0].body.id);
  });

  it('when another API key sends the same Idempotency-Key, then it is independent', async () => {
    const otherKey = stack.client(await stack.createKey(tenant.userId));
    const body = transaction('Idem duas chaves');
    const mine = await send(tenant.api, 'shared-key', body);
    const theirs = await send(otherKey, 'shared-key', body);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await rowsTitled('Idem duas chaves')).toBe(2);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['an inner space', 'chave com espaco'],
  ])('when the key is %s, then 400 with details and nothing is written', async (_label, key) => {
    const response = await send(tenant.api, key, transaction('Idem chave inválida'));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      details: [{ field: 'Idempotency-Key', message: expect.stringContaining('255') }],
    });
    expect(await rowsTitled('Idem chave inválida')).toBe(0);
  });

  it('when the key is 255 visible characters, then it is accepted', async () => {
    const response = await send(tenant.api, `~${'!'.repeat(254)}`, transaction('Idem chave longa'));
    expect(response.status).toBe(201);
  });

  it('when a GET carries the header, then it is ignored', async () => {
    for (const key of ['get-1', 'get-1', 'not valid']) {
      const response = await tenant.api.get('/v1/accounts', { 'idempotency-key': key });
      expect(response.status).toBe(200);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('when the service fails with 5xx, then the key is freed and a retry runs', async () => {
    await stack.sql(`
      create or replace function ledger.fail_idem() returns trigger language plpgsql as $$
      begin raise exception 'forced failure'; end $$;
      create constraint trigger fail_idem after insert on ledger.transactions
        deferrable initially deferred for each row when (new.title = 'Idem falha') execute function ledger.fail_idem();`);
    const body = transaction('Idem falha');
    expect((await send(tenant.api, 'retry-1', body)).status).toBe(500);
    await stack.sql('drop trigger fail_idem on ledger.transactions');
    const retry = await send(tenant.api, 'retry-1', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await rowsTitled('Idem falha')).toBe(1);
  });

  it('when /openapi.json is read, then writes document the header and its 409 and the description states the rules', async () => {
    const document = (await (await fetch(`${stack.url}/openapi.json`)).json()) as {
      info: { description: string };
      components: { parameters: Record<string, unknown> };
      paths: Record<string, Record<string, { parameters: unknown[]; responses: Record<string, unknown> }>>;
    };
    expect(document.info.description).toContain('Idempotent-Replayed: true');
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    const create = document.paths['/v1/transactions'].post;
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(create.responses['409']).toBeDefined();
    expect(document.paths['/v1/transactions'].get.parameters).not.toContainEqual({
      $ref: '#/components/parameters/IdempotencyKey',
    });
  });

  it('when the record is stored, then it lives in the owning service schema with the answer, keyed by API key', async () => {
    const rows = await stack.sql<{ status: number; body: string; fingerprint: string }>(
      'select status, body, fingerprint from ledger.idempotency_keys where key_id = $1 and idempotency_key = $2',
      [tenant.key.keyId, 'replay-1'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe(201);
    expect(JSON.parse(rows[0].body).title).toBe('Idem replay');
    expect(rows[0].fingerprint).toMatch(/^POST \/v1\/transactions /);
    for (const schema of ['billing', 'insights']) {
      expect(await stack.sql(`select 1 from ${schema}.idempotency_keys where idempotency_key = 'replay-1'`)).toEqual(
        [],
      );
    }
  });

  it('when a record is older than 24 h, then the key runs again as new', async () => {
    const body = transaction('Idem expirada');
    const first = await send(tenant.api, 'expired-1', body);
    await stack.sql(
      "update ledger.idempotency_keys set created_at = now() - interval '25 hours' where idempotency_key = 'expired-1'",
    );
    const again = await send(tenant.api, 'expired-1', body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
    expect(await rowsTitled('Idem expirada')).toBe(2);
  });

  it('when the sweep runs, then records older than 24 h are deleted and younger ones kept', async () => {
    expect((await send(tenant.api, 'sweep-old', transaction('Idem varrida'))).status).toBe(201);
    expect((await send(tenant.api, 'sweep-young', transaction('Idem mantida'))).status).toBe(201);
    await stack.sql(
      "update ledger.idempotency_keys set created_at = now() - interval '24 hours 1 minute' where idempotency_key = 'sweep-old'",
    );
    expect(await sweepAnswers(stack.service('ledger').orm.em.fork())).toBeGreaterThanOrEqual(1);
    const left = await stack.sql<{ idempotency_key: string }>(
      "select idempotency_key from ledger.idempotency_keys where idempotency_key like 'sweep-%'",
    );
    expect(left.map((row) => row.idempotency_key)).toEqual(['sweep-young']);
  });

  it('when two requests with one key both pass the lookup and write at once, then one commits and the other rolls back with 409', async () => {
    const side = new pg.Client({ connectionString: stack.databaseUrl });
    await side.connect();
    try {
      // both requests find no record, then queue behind the test's lock on their account
      await side.query('begin');
      await side.query('select id from ledger.accounts where id = $1 for update', [accountId]);
      const body = transaction('Idem gêmeas');
      const twins = [send(tenant.api, 'twins-1', body), send(tenant.api, 'twins-1', body)];
      await waitFor(
        async () =>
          (
            await stack.sql<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
               where application_name = 'finance-ledger' and wait_event_type = 'Lock'`,
            )
          )[0].n === 2,
        10_000,
        25,
      );
      await side.query('commit');
      const answers = await Promise.all(twins);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body).toEqual({
        message: IN_FLIGHT,
        statusCode: 409,
        error: 'Conflict',
      });
      const rows = await stack.sql<{ id: string }>('select id from ledger.transactions where title = $1', [
        'Idem gêmeas',
      ]);
      expect(rows).toHaveLength(1);
      const later = await send(tenant.api, 'twins-1', body);
      expect(later.headers.get('idempotent-replayed')).toBe('true');
      expect(later.body.id).toBe(rows[0].id);
    } finally {
      await side.query('rollback').catch(() => undefined);
      await side.end();
    }
  });
});
