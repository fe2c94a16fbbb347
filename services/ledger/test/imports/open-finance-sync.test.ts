import { addDays, todayUtc } from '@finance/shared/calendar';
import type { ImportedTransaction } from '@finance/shared/contracts/ledger/open-banking';
import { QUEUES } from '@finance/shared/queue/catalogue';
import fc from 'fast-check';
import { BRUNO_CPF, connectSandbox, syncedImport } from '../../../../test/support/sandbox-bank.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';
import { dropStage, SyncStage, stagedBatches } from '../../src/domain/open-banking/sync-stage.ts';

const TODAY = todayUtc();
const at = (day: string) => `${day}T15:00:00.000Z`;
const brl = (amount: string) => ({ amount, currency: 'BRL' });
const entry = (id: string, day: string, fields: Record<string, unknown> = {}) => ({
  transactionId: id,
  completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA',
  creditDebitType: 'DEBITO',
  transactionName: `PIX ${id}`,
  type: 'PIX',
  transactionAmount: brl('12.34'),
  transactionDateTime: at(day),
  ...fields,
});

/**
 * A sync as real institutions make it: a record that breaks the documents is left out with its reason and the rest
 * is imported; an entry still processing is read again until it settles, whatever the sync's window; a long
 * Retry-After delays the sync instead of calling the institution sooner.
 */
describe('Open Finance: syncs against what institutions really send', () => {
  let stack: TestStack;
  let tenant: Tenant;
  const sandbox = () => stack.sandbox as NonNullable<TestStack['sandbox']>;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: { today: TODAY } });
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const titles = async (connection: string) =>
    (
      await stack.sql<{ title: string; paid: boolean }>(
        'select title, paid from ledger.transactions where connection_id = $1 and deleted_at is null',
        [connection],
      )
    ).map((row) => row.title);

  it('when one entry lacks a required field, another has a comma and single-digit date parts, then only the first is left out, with its reason, in the job and on the connection', async () => {
    await sandbox().addRecords({
      cpf: BRUNO_CPF,
      account_id: 'bruno-conta',
      transactions: [
        entry('sem-moeda', addDays(TODAY, -3), { transactionAmount: { amount: '10.00' } }),
        entry('virgula', addDays(TODAY, -3), {
          transactionAmount: brl('12,3456'),
          transactionDateTime: `${TODAY.slice(0, 5)}${Number(TODAY.slice(5, 7))}-${Number(TODAY.slice(8))}T12:00:00Z`,
        }),
      ],
    });
    const { id } = await connectSandbox(stack.url, tenant.api, { cpf: BRUNO_CPF });
    const { job, connection } = await syncedImport(tenant.api, id);
    expect(job.state).toBe('completed');
    const skipped = {
      record: 'lançamento da conta bruno-conta sem-moeda',
      reason: expect.stringContaining('currency'),
    };
    expect(job.result.skipped_records).toEqual([skipped]);
    expect(connection).toMatchObject({
      last_sync_skipped: [skipped],
      last_sync_skipped_count: 1,
      last_sync_error: null,
    });
    const imported = await titles(id);
    expect(imported).toContain('PIX virgula');
    expect(imported).not.toContain('PIX sem-moeda');
    expect(imported.length).toBeGreaterThan(50);
  });

  it('when an entry still processing settles under a new id long after, then the next sync reads it again and it is paid', async () => {
    const owner = await stack.tenant();
    const old = addDays(TODAY, -15);
    await sandbox().addRecords({
      cpf: BRUNO_CPF,
      account_id: 'bruno-conta',
      transactions: [entry('demorado', old, { completedAuthorisedPaymentType: 'TRANSACAO_PROCESSANDO' })],
    });
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const first = await syncedImport(owner.api, id);
    const pending = async () =>
      (
        await stack.sql<{ paid: boolean }>(
          `select paid from ledger.transactions where connection_id = $1 and title = 'PIX demorado'`,
          [id],
        )
      ).map((row) => row.paid);
    expect(await pending()).toEqual([false]);
    // the institution effects it under a new id, dated as before: outside the D-6 days a recent sync reads
    await sandbox().settlePending();
    expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const second = await syncedImport(owner.api, id, first.connection.last_import_job_id);
    expect(second.job.result.transactions.created).toBe(0);
    expect(await pending()).toEqual([true]);
  });

  it('when the institution drops a scheduled entry, then the next sync removes it, and nothing else', async () => {
    const owner = await stack.tenant();
    await sandbox().addRecords({
      cpf: BRUNO_CPF,
      account_id: 'bruno-conta',
      transactions: [entry('cancelado', addDays(TODAY, 3), { completedAuthorisedPaymentType: 'LANCAMENTO_FUTURO' })],
    });
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const first = await syncedImport(owner.api, id);
    expect(await titles(id)).toContain('PIX cancelado');
    await sandbox().dropRecord({ cpf: BRUNO_CPF, account_id: 'bruno-conta', transaction_id: 'cancelado' });
    expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const second = await syncedImport(owner.api, id, first.connection.last_import_job_id);
    expect(second.job.result.transactions).toMatchObject({ created: 0, removed: 1 });
    const before = first.job.result.transactions.created;
    const after = await titles(id);
    expect(after).not.toContain('PIX cancelado');
    expect(after).toHaveLength(before - 1);
  });

  it('when the institution answers 429 with Retry-After: 30, then it is called once and the sync waits that long', async () => {
    const owner = await stack.tenant();
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const first = await syncedImport(owner.api, id);
    await sandbox().fault({ status: 429, times: 5, path: '/open-banking/resources', retry_after: 30 });
    const queuedAt = Date.now();
    expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const delayed = await waitFor(async () => {
      const jobs = await stack.services[0].runtime.queues.get(QUEUES.openBankingSync).getDelayed();
      return jobs.find((job) => job.data.connection_id === id);
    });
    // one call, then the job waits the 30 s the institution asked for
    expect(delayed.delay).toBeGreaterThanOrEqual(29_000);
    expect(delayed.timestamp + delayed.delay - queuedAt).toBeGreaterThanOrEqual(29_000);
    const connection = (await owner.api.get(`/v1/open-banking/connections/${id}`)).body;
    expect(connection.last_sync_error).toMatch(/aguardar 30 s/);
    expect(connection.last_import_job_id).toBe(first.connection.last_import_job_id);
    const faults = await sandbox().faultsLeft();
    expect(faults).toEqual([expect.objectContaining({ times: 4 })]);
    await sandbox().clearFaults();
  });

  const staged = async () =>
    Number((await stack.sql<{ n: string }>('select count(*) as n from ledger.sync_staged_entries'))[0].n);

  it('when a long account list is read page by page, then every entry arrives once, an id the bank repeats pages apart keeps both entries, and nothing stays staged', async () => {
    const owner = await stack.tenant();
    const day = addDays(TODAY, -4);
    // 80 entries of one day, pages of 25: the first and the last name the same id
    const listed = Array.from({ length: 80 }, (_, n) =>
      entry(n === 0 || n === 79 ? 'repetida' : `pagina-${n}`, day, { transactionAmount: brl(`${100 + n}.00`) }),
    );
    await sandbox().addRecords({ cpf: BRUNO_CPF, account_id: 'bruno-conta', transactions: listed });
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const { job, connection } = await syncedImport(owner.api, id);
    expect(job.state).toBe('completed');
    const rows = await stack.sql<{ title: string; amount: number }>(
      `select title, amount from ledger.transactions
       where connection_id = $1 and deleted_at is null and (title like 'PIX pagina-%' or title = 'PIX repetida')`,
      [id],
    );
    expect(rows.filter((row) => row.title.startsWith('PIX pagina-'))).toHaveLength(78);
    expect(
      rows
        .filter((row) => row.title === 'PIX repetida')
        .map((row) => Number(row.amount))
        .sort((a, b) => a - b),
    ).toEqual([10_000, 17_900]);
    expect(await staged()).toBe(0);
    // read again: nothing new
    expect((await owner.api.post(`/v1/open-banking/connections/${id}/sync`)).status).toBe(202);
    const again = await syncedImport(owner.api, id, connection.last_import_job_id);
    expect(again.job.result.transactions.created).toBe(0);
    expect(await staged()).toBe(0);
  });

  it('when the institution fails a long list past its first pages, then that sync leaves nothing staged and the next one imports the whole list once', async () => {
    const owner = await stack.tenant();
    // 600 more entries in pages of 25: the stage has written 500 of them when page 25 fails every call of one
    // sync (a call and its 4 retries)
    const day = addDays(TODAY, -5);
    await sandbox().addRecords({
      cpf: BRUNO_CPF,
      account_id: 'bruno-conta',
      transactions: Array.from({ length: 600 }, (_, n) => entry(`longa-${n}`, day)),
    });
    await sandbox().fault({ status: 500, times: 5, path: '/open-banking/accounts', query: 'page=25' });
    const { id } = await connectSandbox(stack.url, owner.api, { cpf: BRUNO_CPF });
    const { job, connection } = await syncedImport(owner.api, id);
    expect(await sandbox().faultsLeft()).toEqual([]);
    expect(job.state).toBe('completed');
    expect(connection.last_sync_error).toBeNull();
    const [{ n }] = await stack.sql<{ n: string }>(
      `select count(*) as n from ledger.transactions where connection_id = $1 and title like 'PIX longa-%'`,
      [id],
    );
    expect(Number(n)).toBe(600);
    expect(await staged()).toBe(0);
  });

  it('when a stage is read back in batches, then every entry comes once, in its order, and the entries of one holder and id share a batch', async () => {
    const em = stack.service('ledger').orm.em.fork();
    const keyOf = (entry: ImportedTransaction) =>
      `${entry.account_external_id ?? entry.credit_card_external_id}/${entry.external_id}`;
    const arbitrary = fc.array(fc.tuple(fc.constantFrom('a', 'c'), fc.integer({ min: 0, max: 30 })), {
      minLength: 1,
      maxLength: 120,
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, fc.integer({ min: 1, max: 25 }), async (pairs, size) => {
        const entries: ImportedTransaction[] = pairs.map(([holder, id], n) => ({
          external_id: `id-${id}`,
          ...(holder === 'a' ? { account_external_id: 'conta' } : { credit_card_external_id: 'cartao' }),
          amount: n + 1,
          date: TODAY,
          is_expense: true,
          title: `entrada ${n}`,
        }));
        const stage = new SyncStage(em);
        // in pages of 7, as an institution sends them
        for (let n = 0; n < entries.length; n += 7) await stage.add(entries.slice(n, n + 7));
        const { id, count } = await stage.close();
        expect(count).toBe(entries.length);
        const batches: ImportedTransaction[][] = [];
        for await (const batch of stagedBatches(em, id, size)) batches.push(batch);
        await dropStage(em, id);
        expect(
          batches
            .flat()
            .map((entry) => entry.amount)
            .sort((a, b) => a - b),
        ).toEqual(entries.map((e) => e.amount));
        const batchOf = new Map<string, number>();
        batches.forEach((batch, n) => {
          for (const entry of batch) {
            const key = keyOf(entry);
            expect(batchOf.get(key) ?? n).toBe(n);
            batchOf.set(key, n);
          }
          // within a batch, the entries of one id in the order they arrived
          const amounts = (key: string) => batch.filter((e) => keyOf(e) === key).map((e) => e.amount);
          for (const key of new Set(batch.map((e) => keyOf(e))))
            expect(amounts(key)).toEqual([...amounts(key)].sort((a, b) => a - b));
        });
      }),
      { numRuns: 15 },
    );
    expect(await staged()).toBe(0);
  });
});
