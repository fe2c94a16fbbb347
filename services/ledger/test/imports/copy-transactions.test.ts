import { newId } from '@finance/shared/db/base-entity';
import fc from 'fast-check';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { insertReturningChanged, insertTransactions } from '../../src/data-access/transaction-repository.ts';
import { blankTransaction } from '../../src/domain/transactions/new-transaction.ts';

/** What a stored row holds, as PostgreSQL prints it (the id and the stamps aside). */
const STORED = `select title, description, amount::text, date::text, is_expense, paid, paid_at::text, type,
  document_number, merchant_name, merchant_name_normalized, original_amount::text, original_currency,
  connected_transaction_id, series_index, created_at = updated_at as stamped_once
  from ledger.transactions where id = any($1::uuid[]) order by array_position($1::uuid[], id)`;

/** Text as statements bring it: any grapheme, and what CSV and COPY give a meaning to. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((value) => value.replaceAll('\u0000', '')),
  fc.constantFrom('', ' ', ',', '"', '""', '\n', '\r\n', '\\', '\\N', 'NULL', '\t', ' lado ', 'a,"b"\nc', '=1+1'),
);

/**
 * An import's rows go by COPY, inside its transaction: each column stored exactly as the insert stores the same
 * row, stamped with the transaction's `now()`, rolled back with it, and the rows of a transfer still by the insert.
 */
describe('imported rows written by COPY', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let accountId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    accountId = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterAll(() => stack?.stop());

  const em = () => stack.service('ledger').orm.em.fork();
  const rowOf = (fields: {
    title: string;
    description: string | null;
    document: string | null;
    merchant: string | null;
    cents: number;
    day: number;
    expense: boolean;
    original: string | null;
  }) =>
    blankTransaction({
      user_id: tenant.userId,
      profile_id: null,
      account_id: accountId,
      type: 'FIXED',
      amount: fields.cents,
      date: `2026-03-${String(fields.day).padStart(2, '0')}`,
      title: fields.title,
      description: fields.description,
      document_number: fields.document,
      merchant_name: fields.merchant,
      is_expense: fields.expense,
      paid: fields.expense,
      paid_at: fields.expense ? '2026-03-05T12:34:56.789Z' : null,
      original_amount: fields.original,
      original_currency: fields.original ? 'USD' : null,
    });
  const fields = fc.record({
    title: text,
    description: fc.option(text),
    document: fc.option(text),
    merchant: fc.option(text),
    cents: fc.integer({ min: 1, max: 999_999_999_999 }),
    day: fc.integer({ min: 1, max: 28 }),
    expense: fc.boolean(),
    // the column holds a positive amount (its check)
    original: fc.option(fc.integer({ min: 1, max: 9_999_999 }).map((cents) => (cents / 100).toFixed(2))),
  });

  it('when any rows are written by COPY, then each is stored exactly as the insert stores the same row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fields, { minLength: 1, maxLength: 40 }), async (generated) => {
        const copied = generated.map(rowOf);
        const inserted = copied.map((row) => ({ ...row, id: newId() }));
        const changed = await em().transactional(async (tx) => {
          await insertTransactions(tx, inserted);
          return insertReturningChanged(tx, copied);
        });
        expect(changed.map((row) => row.id)).toEqual(copied.map((row) => row.id));
        const byCopy = await stack.sql(STORED, [copied.map((row) => row.id)]);
        const byInsert = await stack.sql(STORED, [inserted.map((row) => row.id)]);
        expect(byCopy).toEqual(byInsert);
        expect(byCopy.every((row) => row.stamped_once)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('when rows are written by COPY inside a transaction stamped earlier, then each carries the transaction’s now()', async () => {
    const row = rowOf({
      title: 'Carimbo',
      description: null,
      document: null,
      merchant: null,
      cents: 100,
      day: 3,
      expense: true,
      original: null,
    });
    const stamps = await em().transactional(async (tx) => {
      const [{ started }] = await tx
        .getConnection()
        .execute<Array<{ started: string }>>(
          `select now()::timestamptz(3)::text as started`,
          [],
          'all',
          tx.getTransactionContext(),
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await insertReturningChanged(tx, [row]);
      return started;
    });
    const [stored] = await stack.sql<{ created: string; updated: string }>(
      'select created_at::text as created, updated_at::text as updated from ledger.transactions where id = $1',
      [row.id],
    );
    expect(stored).toEqual({ created: stamps, updated: stamps });
  });

  it('when the transaction fails after its COPY, then none of the rows stays', async () => {
    const rows = Array.from({ length: 1_200 }, (_, n) =>
      rowOf({
        title: `Desfeita ${n}`,
        description: null,
        document: null,
        merchant: null,
        cents: n + 1,
        day: 4,
        expense: true,
        original: null,
      }),
    );
    await expect(
      em().transactional(async (tx) => {
        await insertReturningChanged(tx, rows);
        throw new Error('falhou depois');
      }),
    ).rejects.toThrow('falhou depois');
    const [{ n }] = await stack.sql<{ n: number }>(
      'select count(*)::int as n from ledger.transactions where id = any($1::uuid[])',
      [rows.map((row) => row.id)],
    );
    expect(n).toBe(0);
  });

  it('when the rows hold a transfer’s legs among plain ones, then the legs go by the insert, a taken pair is skipped, and the order is kept', async () => {
    const plain = (title: string) =>
      rowOf({
        title,
        description: null,
        document: null,
        merchant: null,
        cents: 500,
        day: 6,
        expense: true,
        original: null,
      });
    const outgoing = plain('Saída');
    const incoming = {
      ...plain('Entrada'),
      is_expense: false,
      type: 'TRANSFER',
      connected_transaction_id: outgoing.id,
      series_index: 1,
    };
    Object.assign(outgoing, { type: 'TRANSFER', connected_transaction_id: outgoing.id, series_index: 0 });
    const taken = { ...plain('Repetida'), type: 'TRANSFER', connected_transaction_id: outgoing.id, series_index: 1 };
    const rows = [plain('Antes'), outgoing, incoming, plain('Depois')];
    const first = await em().transactional((tx) => insertReturningChanged(tx, rows));
    expect(first.map((row) => row.id)).toEqual(rows.map((row) => row.id));
    const second = await em().transactional((tx) => insertReturningChanged(tx, [plain('Nova'), taken]));
    expect(second).toHaveLength(1);
    const [{ n }] = await stack.sql<{ n: number }>('select count(*)::int as n from ledger.transactions where id = $1', [
      taken.id,
    ]);
    expect(n).toBe(0);
  });
});
