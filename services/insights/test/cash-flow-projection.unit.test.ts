import type { BillAhead } from '@finance/shared/contracts/internal/billing-for-insights';
import type { CashFlowAccount } from '@finance/shared/contracts/internal/ledger-for-insights';
import fc from 'fast-check';
import { type ProjectionInput, projectCashFlow } from '../src/domain/cash-flow/project-cash-flow.ts';

const TODAY = '2031-01-10';
const account = (id: string, balance: number, extra: Partial<CashFlowAccount> = {}): CashFlowAccount => ({
  id,
  name: id,
  type: null,
  is_default: false,
  counts_in_total: true,
  balance,
  ...extra,
});
const bill = (due: string, balance: number, card = 'card', accountId = 'main'): BillAhead => ({
  bill_id: `${card}-${due}`,
  credit_card_id: card,
  card_name: card,
  account_id: accountId,
  due_date: due,
  balance,
});
const base = (overrides: Partial<ProjectionInput>): ProjectionInput => ({
  today: TODAY,
  start: TODAY,
  end: '2031-01-20',
  threshold: 0,
  accounts: [account('main', 10_000, { is_default: true })],
  entries: [],
  occurrences: [],
  bills: [],
  contributions: [],
  byCostCenter: false,
  ...overrides,
});
const moves = (result: ReturnType<typeof projectCashFlow>) =>
  result.days.flatMap((day) => day.movements.map((m) => [day.date, m.kind, m.amount, m.date]));

describe('the cash-flow projection', () => {
  it('when something is overdue, then it moves today with its own date; what falls after the end is left out', () => {
    const result = projectCashFlow(
      base({
        entries: [
          {
            transaction_id: 't1',
            account_id: 'main',
            date: '2030-12-01',
            amount: -500,
            title: 'Atrasada',
            type: 'FIXED',
            cost_centers: [],
          },
          {
            transaction_id: 't2',
            account_id: 'main',
            date: '2031-01-21',
            amount: -700,
            title: 'Depois',
            type: 'FIXED',
            cost_centers: [],
          },
        ],
        bills: [bill('2031-01-05', 2_000)],
      }),
    );
    expect(moves(result)).toEqual([
      [TODAY, 'ENTRY', -500, '2030-12-01'],
      [TODAY, 'BILL', -2_000, '2031-01-05'],
    ]);
    expect(result.accounts[0].balances[0]).toBe(7_500);
  });

  it("when a bill is overpaid, then its credit lowers the card's next bill, and a credit larger than it moves nothing", () => {
    const result = projectCashFlow(
      base({
        end: '2031-04-30',
        bills: [
          bill('2031-02-10', -3_000),
          bill('2031-03-10', 2_000),
          bill('2031-04-10', 5_000),
          bill('2031-02-15', 100, 'other'),
        ],
      }),
    );
    // the credit of 30,00 covers March's 20,00 and leaves 10,00 for April
    expect(moves(result).map(([day, , amount]) => [day, amount])).toEqual([
      ['2031-02-15', -100],
      ['2031-04-10', -4_000],
    ]);
  });

  it('when goals plan contributions, then they leave the default account; with no default account, none', () => {
    const contributions = [{ goal_id: 'g', title: 'Viagem', date: '2031-01-15', amount: 1_000 }];
    const accounts = [account('other', 0), account('main', 5_000, { is_default: true })];
    const result = projectCashFlow(base({ accounts, contributions }));
    expect(result.days.find((day) => day.date === '2031-01-15')?.movements).toEqual([
      expect.objectContaining({ kind: 'GOAL', account_id: 'main', amount: -1_000, goal_id: 'g' }),
    ]);
    const alone = projectCashFlow(base({ accounts: [account('other', 0)], contributions }));
    expect(moves(alone)).toEqual([]);
  });

  it('when accounts do not count in the total, then the total leaves them out; each account keeps its own days', () => {
    const accounts = [
      account('main', 1_000, { is_default: true }),
      account('invest', 9_000, { counts_in_total: false }),
    ];
    const result = projectCashFlow(base({ accounts, end: TODAY }));
    expect(result.days).toEqual([{ date: TODAY, total_balance: 1_000, movements: [] }]);
    expect(result.accounts.map((a) => a.balances)).toEqual([[1_000], [9_000]]);
  });

  it('when the threshold is crossed before the start, then the first shortfall is that day and the lowest is the one shown', () => {
    const result = projectCashFlow(
      base({
        start: '2031-01-15',
        threshold: -100,
        entries: [
          {
            transaction_id: 't',
            account_id: 'main',
            date: '2031-01-12',
            amount: -20_000,
            title: 'X',
            type: 'FIXED',
            cost_centers: [],
          },
          {
            transaction_id: 'u',
            account_id: 'main',
            date: '2031-01-16',
            amount: 15_000,
            title: 'Y',
            type: 'FIXED',
            cost_centers: [],
          },
        ],
      }),
    );
    expect(result.accounts[0]).toMatchObject({
      first_shortfall_date: '2031-01-12',
      lowest_balance: -10_000,
      lowest_balance_date: '2031-01-15',
    });
    expect(result.days[0].date).toBe('2031-01-15');
  });

  it('when any movements are projected, then each day ends at the last balance plus its movements, and the total is the sum of what counts', () => {
    const day = fc.integer({ min: 0, max: 40 }).map((n) => `2031-01-${String(10 + (n % 20)).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b'), day, fc.integer({ min: -100_000, max: 100_000 })), {
          maxLength: 30,
        }),
        (raw) => {
          const accounts = [account('a', 1_000, { is_default: true }), account('b', -500, { counts_in_total: false })];
          const entries = raw.map(([id, date, amount], n) => ({
            transaction_id: `t${n}`,
            account_id: id,
            date,
            amount,
            title: `T${n}`,
            type: 'FIXED',
            cost_centers: [],
          }));
          const result = projectCashFlow(base({ accounts, entries, end: '2031-01-29' }));
          const running = { a: 1_000, b: -500 };
          result.days.forEach((entry, index) => {
            for (const movement of entry.movements) running[movement.account_id as 'a' | 'b'] += movement.amount;
            expect([result.accounts[0].balances[index], result.accounts[1].balances[index]]).toEqual([
              running.a,
              running.b,
            ]);
            expect(entry.total_balance).toBe(running.a);
          });
          expect(result.days.flatMap((entry) => entry.movements)).toHaveLength(entries.length);
        },
      ),
    );
  });
});
