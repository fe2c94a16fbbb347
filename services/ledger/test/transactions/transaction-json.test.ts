import { randomUUID } from 'node:crypto';
import { runSql } from '@finance/shared/db/sql';
import fc from 'fast-check';
import { TestStack } from '../../../../test/support/stack.ts';
import type { NewTransaction } from '../../src/data-access/transaction-columns.ts';
import { VIEW_JSON } from '../../src/data-access/transaction-json.ts';
import {
  insertTransactions,
  selectTransactions,
  VIEW_SELECT_COLUMNS,
} from '../../src/data-access/transaction-repository.ts';
import { transactionView } from '../../src/domain/transactions/transaction-view.ts';

/** Text as users and banks send it: any Unicode (accents, emoji), quotes, backslashes and control characters. */
const text = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '\n', '\t', '\u0001', '\u001f', '\u2028', '/'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
  })
  // PostgreSQL's text holds no NUL
  .map((value) => value.replaceAll('\u0000', ''));
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const day = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const instant = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString());

/** A row the table accepts (its checks: amount, type, frequency, one holder), every other value arbitrary. */
const row = (userId: string, accountId: string): fc.Arbitrary<NewTransaction> =>
  fc
    .record({
      profile_id: nullable(fc.uuid()),
      amount: fc.integer({ min: 1, max: 10_000_000_000_000 }),
      date: day,
      title: text,
      description: nullable(text),
      is_expense: fc.boolean(),
      paid: fc.boolean(),
      paid_at: nullable(instant),
      type: fc.constantFrom('FIXED', 'RECURRENT', 'PARCELLED', 'TRANSFER'),
      installments: fc.integer({ min: 1, max: 420 }),
      installment_number: nullable(fc.integer({ min: 1, max: 420 })),
      frequency: nullable(fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY')),
      currency: fc.constantFrom('BRL', 'USD'),
      on_card: fc.boolean(),
      holder: fc.uuid(),
      bill_id: nullable(fc.uuid()),
      billed_at: nullable(instant),
      category_id: nullable(fc.uuid()),
      subcategory_id: nullable(fc.uuid()),
      competence_date: nullable(day),
      contact_id: nullable(fc.uuid()),
      cost_center_id: nullable(fc.uuid()),
      document_number: nullable(text),
      connected_transaction_id: nullable(fc.uuid()),
      is_bill_payment: fc.boolean(),
      is_full_amount: fc.boolean(),
      is_previous_balance: fc.boolean(),
      show_on_balance: fc.boolean(),
      logo_url: nullable(text),
      merchant_cnae: nullable(text),
      merchant_cnpj: nullable(text),
      merchant_name: nullable(text),
      operation_type: nullable(text),
      reconciled_at: nullable(instant),
      reconciled_by_user_id: nullable(fc.uuid()),
      reconciled_with_transaction_id: nullable(fc.uuid()),
      // an amount in another currency as the imports store it (at least two decimals)
      original_amount: nullable(
        fc
          .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 1, max: 99 }))
          .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`),
      ),
      original_currency: nullable(fc.constantFrom('USD', 'EUR')),
      is_split: fc.boolean(),
      series_index: nullable(fc.integer({ min: 0, max: 1000 })),
      external_id: nullable(text),
    })
    .map(({ on_card, holder, ...values }) => ({
      ...values,
      id: randomUUID(),
      user_id: userId,
      account_id: on_card ? null : accountId,
      credit_card_id: on_card ? holder : null,
      connection_id: null,
    }));

describe('the Transaction record written by PostgreSQL (VIEW_JSON) and by transactionView', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it('when rows of any values are read both ways, then the JSON texts are the same, byte for byte', async () => {
    const tenant = await stack.tenant();
    const account = await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' });
    expect(account.status).toBe(201);
    const em = () => stack.service('ledger').runtime.orm.em.fork();
    await fc.assert(
      fc.asyncProperty(fc.array(row(tenant.userId, account.body.id), { minLength: 1, maxLength: 15 }), async (rows) => {
        await insertTransactions(em(), rows);
        const ids = rows.map((one) => one.id);
        const [objects, texts] = await Promise.all([
          selectTransactions(
            em(),
            `select ${VIEW_SELECT_COLUMNS} from transactions t where t.id in (?) order by t.id`,
            [ids],
          ),
          runSql<{ view: string }>(
            em(),
            `select ${VIEW_JSON.select} as view from transactions t ${VIEW_JSON.from} where t.id in (?) order by t.id`,
            [ids],
          ),
        ]);
        expect(texts.map((one) => one.view)).toEqual(objects.map((one) => JSON.stringify(transactionView(one))));
        expect(texts).toHaveLength(rows.length);
      }),
      { numRuns: 40 },
    );
  });
});
