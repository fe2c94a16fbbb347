import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays } from '@finance/shared/calendar';
import { todayIn } from '@finance/shared/clock';
import pg from 'pg';
import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { csvFile } from '../../../test/support/statement-files.ts';
import { importStatement } from '../../../test/support/statement-imports.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

/** A bank's CSV export (preset nubank-conta) of `lines` entries over the last days, each with its own id. */
const statement = (lines: number, tag: string) => {
  const today = todayIn();
  const rows = Array.from({ length: lines }, (_, n) => {
    const [year, month, day] = addDays(today, -(n % 60)).split('-');
    return [
      `${day}/${month}/${year}`,
      `-${(n + 1) % 997}.${String(n % 100).padStart(2, '0')}`,
      `${tag}-${n}`,
      `Compra ${n}`,
    ];
  });
  return csvFile([['Data', 'Valor', 'Identificador', 'Descrição'], ...rows]);
};

/**
 * An account deleted while a write to it is in flight: the two never interleave. A test connection plays
 * one side inside an open transaction, the API the other, so the interleaving is forced, not hoped for.
 */
describe('account deletion racing writes to the account', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let side: pg.Client;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    side = new pg.Client({ connectionString: stack.databaseUrl });
    await side.connect();
  });
  afterAll(async () => {
    await side?.end();
    await stack?.stop();
  });

  const newAccount = async (name: string) => (await tenant.api.post('/v1/accounts', { name, logo: '341' })).body.id;
  const liveOn = async (accountId: string) =>
    (
      await stack.sql<{ n: number }>(
        'select count(*)::int as n from ledger.transactions where account_id = $1 and deleted_at is null',
        [accountId],
      )
    )[0].n;

  it('when a deletion holds the account while a transaction is created on it, then the creation waits and answers 404', async () => {
    await newAccount('Principal');
    const doomed = await newAccount('Condenada');
    await side.query('begin');
    await side.query('select id from ledger.accounts where id = $1 for update', [doomed]);
    let settled = false;
    const creating = tenant.api
      .post('/v1/transactions', {
        amount: 1000,
        date: '2026-03-05',
        is_expense: true,
        title: 'Compra',
        account_id: doomed,
      })
      .finally(() => {
        settled = true;
      });
    await sleep(300);
    expect(settled).toBe(false);
    await side.query('update ledger.accounts set deleted_at = now() where id = $1', [doomed]);
    await side.query('commit');
    const response = await creating;
    expect(response.status).toBe(404);
    expect(await liveOn(doomed)).toBe(0);
  });

  it('when a write holds the account while it is deleted, then the deletion waits and takes the new entry with it', async () => {
    await newAccount('Outra');
    const doomed = await newAccount('Apagada');
    const written = randomUUID();
    await side.query('begin');
    await side.query('select id from ledger.accounts where id = $1 for key share', [doomed]);
    await side.query(
      `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, type, account_id, paid,
         created_at, updated_at)
       values ($1, $2, 500, '2026-03-05', 'Em voo', true, 'FIXED', $3, true, now(), now())`,
      [written, tenant.userId, doomed],
    );
    let settled = false;
    const deleting = tenant.api.delete(`/v1/accounts/${doomed}`).finally(() => {
      settled = true;
    });
    await sleep(300);
    expect(settled).toBe(false);
    await side.query('commit');
    expect((await deleting).status).toBe(200);
    expect(await liveOn(doomed)).toBe(0);
    const [row] = await stack.sql('select deleted_at from ledger.transactions where id = $1', [written]);
    expect(row.deleted_at).not.toBeNull();
  });

  it('when the outbox job moves the cards before the deletion’s own call to billing, then the answer still names each moved card', async () => {
    const owner = await stack.tenant();
    const kept = (await owner.api.post('/v1/accounts', { name: 'Fica', logo: '341' })).body.id;
    const doomed = (await owner.api.post('/v1/accounts', { name: 'Sai', logo: '341' })).body.id;
    const card = (
      await owner.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: doomed,
        closing_date: 5,
        expiring_date: 12,
      })
    ).body.id;
    // the card's row held, so billing's move waits; then moved as the outbox's job would move it, first
    await side.query('begin');
    await side.query('select id from billing.credit_cards where id = $1 for update', [card]);
    const deleting = owner.api.delete(`/v1/accounts/${doomed}`);
    await waitFor(
      async () =>
        (
          await stack.sql<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%update credit_cards%'`,
          )
        )[0].n > 0,
    );
    await side.query('update billing.credit_cards set account_id = $1 where id = $2', [kept, card]);
    await side.query('commit');
    const deleted = await deleting;
    expect(deleted.status).toBe(200);
    expect(deleted.body.movedCreditCards).toEqual([{ id: card, account_id: kept }]);
    expect((await owner.api.get(`/v1/credit-cards/${card}`)).body.account_id).toBe(kept);
  });

  const liveOnCard = async (cardId: string) =>
    (
      await stack.sql<{ n: number }>(
        'select count(*)::int as n from ledger.transactions where credit_card_id = $1 and deleted_at is null',
        [cardId],
      )
    )[0].n;

  it('when an import into an account holds its lock, then the account’s deletion waits and takes the imported entries with it', async () => {
    await newAccount('Fica');
    const doomed = await newAccount('Importada e apagada');
    await side.query('begin');
    await side.query('select pg_advisory_xact_lock(hashtext($1))', [`import:${doomed}`]);
    let settled = false;
    const deleting = tenant.api.delete(`/v1/accounts/${doomed}`).finally(() => {
      settled = true;
    });
    await sleep(300);
    expect(settled).toBe(false);
    await side.query('commit');
    expect((await deleting).status).toBe(200);
  });

  it('when an account is deleted while its statement waits for the import worker, then the job completes skipping every entry with why', async () => {
    await newAccount('Restante');
    const doomed = await newAccount('Apagada no meio');
    // the deletion in progress holds the account (as it does) while the job reaches it
    await side.query('begin');
    await side.query('select id from ledger.accounts where id = $1 for update', [doomed]);
    const importing = importStatement(
      tenant.api,
      `/v1/accounts/${doomed}/statements?preset=nubank-conta`,
      statement(40, 'meio'),
      'text/csv',
    );
    await sleep(500);
    await side.query('update ledger.accounts set deleted_at = now() where id = $1', [doomed]);
    await side.query('commit');
    const { job } = await importing;
    expect(job.state).toBe('completed');
    expect(job.result).toMatchObject({ created: 0, lines: 40 });
    expect(new Set(job.result.skipped.map((entry: { reason: string }) => entry.reason))).toEqual(
      new Set(['conta excluída antes da importação; seus lançamentos não são importados']),
    );
    expect(job.result.skipped).toHaveLength(40);
    expect(await liveOn(doomed)).toBe(0);
  });

  it('when statements are imported into accounts and cards deleted at the same moment, 16 times, then no entry is left live in a deleted one and nothing answers 5xx', async () => {
    const main = await newAccount('Conta dos cartões');
    const rounds = Array.from({ length: 16 }, (_, n) => n);
    const outcomes = await Promise.all(
      rounds.map(async (n) => {
        const onCard = n % 4 === 3;
        const holder = onCard
          ? (
              await tenant.api.post('/v1/credit-cards', {
                name: `Cartão ${n}`,
                account_id: main,
                closing_date: 10,
                expiring_date: 17,
              })
            ).body.id
          : await newAccount(`Corrida ${n}`);
        const path = onCard
          ? `/v1/credit-cards/${holder}/statements?preset=nubank-cartao`
          : `/v1/accounts/${holder}/statements?preset=nubank-conta`;
        const file = onCard
          ? csvFile([
              ['date', 'title', 'amount'],
              ...Array.from({ length: 150 }, (_, k) => [addDays(todayIn(), -(k % 60)), `Compra ${k}`, `${k + 1}.90`]),
            ])
          : statement(300, `corrida-${n}`);
        const importing = importStatement(tenant.api, path, file, 'text/csv');
        // the deletion lands before, during or after the import's transaction as the rounds' delays fall; every
        // fifth round waits for the import to finish, so some entries are always written before their holder goes
        if (n % 5 === 4) await importing;
        else await sleep((n * 173) % 2500);
        const deleted = await tenant.api.delete(onCard ? `/v1/credit-cards/${holder}` : `/v1/accounts/${holder}`);
        const { response, job } = await importing;
        return { holder, onCard, deleted: deleted.status, imported: response.status, job };
      }),
    );
    for (const outcome of outcomes) {
      expect([outcome.holder, outcome.deleted]).toEqual([outcome.holder, 200]);
      expect([200, 202, 404]).toContain(outcome.imported);
      if (outcome.job) expect([outcome.holder, outcome.job.state]).toEqual([outcome.holder, 'completed']);
    }
    // the card's entries go when the ledger applies billing's deletion (after its answer, or by its outbox job)
    for (const outcome of outcomes)
      await waitFor(
        async () => (outcome.onCard ? await liveOnCard(outcome.holder) : await liveOn(outcome.holder)) === 0,
      );
    // the rounds that waited wrote their entries, which went with their holder
    expect(outcomes.filter((_, n) => n % 5 === 4).map((outcome) => outcome.job.result.created > 0)).toEqual([
      true,
      true,
      true,
    ]);
  });
});
