import fc from 'fast-check';
import { TestStack } from '../../../../test/support/stack.ts';
import { newAccount } from '../../../../test/support/transactions.ts';

type Entry = { amount: number; is_expense: boolean; paid: boolean; show_on_balance: boolean };
type Op =
  | { kind: 'create'; entry: Entry }
  | { kind: 'edit'; pick: number; amount: number; paid: boolean }
  | { kind: 'delete'; pick: number };

const entry = fc.record({
  amount: fc.integer({ min: 1, max: 1_000_000 }),
  is_expense: fc.boolean(),
  paid: fc.boolean(),
  show_on_balance: fc.boolean(),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), entry }),
  fc.record({
    kind: fc.constant('edit' as const),
    pick: fc.nat(),
    amount: fc.integer({ min: 1, max: 1_000_000 }),
    paid: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

describe('account balance', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it('when random creates, edits and deletes happen, then the balance is the initial plus live paid shown entries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.array(op, { maxLength: 12 }),
        async (initial, ops) => {
          const tenant = await stack.tenant();
          const account = await newAccount(tenant.api, initial);
          const live = new Map<string, Entry>();
          for (const step of ops) {
            const ids = [...live.keys()];
            if (step.kind === 'create') {
              const response = await tenant.api.post('/v1/transactions', {
                ...step.entry,
                date: '2026-01-10',
                title: 'Lançamento',
                account_id: account,
              });
              expect(response.status).toBe(201);
              live.set(response.body.id, step.entry);
            } else if (ids.length && step.kind === 'edit') {
              const id = ids[step.pick % ids.length];
              const response = await tenant.api.put(`/v2/transactions/duplicate/update-many?transactions_ids=${id}`, {
                amount: step.amount,
                paid: step.paid,
              });
              expect(response.status).toBe(200);
              live.set(id, { ...(live.get(id) as Entry), amount: step.amount, paid: step.paid });
            } else if (ids.length && step.kind === 'delete') {
              const id = ids[step.pick % ids.length];
              expect((await tenant.api.delete(`/v1/transactions/${id}`)).body).toEqual({ deleted: 1 });
              live.delete(id);
            }
          }
          const expected = [...live.values()]
            .filter((e) => e.paid && e.show_on_balance)
            .reduce((sum, e) => sum + (e.is_expense ? -e.amount : e.amount), initial);
          expect((await tenant.api.get(`/v1/accounts/${account}`)).body.balance).toBe(expected);
        },
      ),
      { numRuns: 8 },
    );
  });
});
