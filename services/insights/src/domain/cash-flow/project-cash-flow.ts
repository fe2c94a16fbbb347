import { addDays, type CalendarDate } from '@finance/shared/calendar';
import { MOVEMENT_KINDS, type MovementKind } from '@finance/shared/contracts/insights/cash-flow';
import type { BillAhead } from '@finance/shared/contracts/internal/billing-for-insights';
import type {
  CashFlowAccount,
  CashFlowEntry,
  CashFlowOccurrence,
  CostCenterShare,
} from '@finance/shared/contracts/internal/ledger-for-insights';

/** A goal's planned contribution on one day (its reminder). */
export interface PlannedContribution {
  goal_id: string;
  title: string;
  date: CalendarDate;
  amount: number;
}

export interface ProjectionInput {
  today: CalendarDate;
  start: CalendarDate;
  end: CalendarDate;
  threshold: number;
  accounts: CashFlowAccount[];
  entries: CashFlowEntry[];
  /** Unwritten occurrences on accounts (card ones are in `bills`). */
  occurrences: CashFlowOccurrence[];
  bills: BillAhead[];
  contributions: PlannedContribution[];
  /** A company's forecast: each day by cost center too. */
  byCostCenter: boolean;
}

export interface Movement {
  kind: MovementKind;
  account_id: string;
  amount: number;
  title: string;
  date: CalendarDate;
  transaction_id: string | null;
  series_id: string | null;
  bill_id: string | null;
  credit_card_id: string | null;
  goal_id: string | null;
}

const NO_IDS = { transaction_id: null, series_id: null, bill_id: null, credit_card_id: null, goal_id: null };
// calendar dates are `YYYY-MM-DD` text: their order is the text's, compared without parsing them (days of a year)
const later = (a: CalendarDate, b: CalendarDate) => (a < b ? b : a);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The bills a card's account pays, in due order, each in full at its due date (an overdue one today): a bill's credit
 * (a negative balance, an overpayment) lowers the next one, as the rollover carries it (docs/decisions.md §8).
 */
function billPayments(bills: BillAhead[], today: CalendarDate): Array<{ day: CalendarDate; movement: Movement }> {
  const payments: Array<{ day: CalendarDate; movement: Movement }> = [];
  const carried = new Map<string, number>();
  for (const bill of [...bills].sort((a, b) => byText(a.due_date, b.due_date))) {
    const owed = bill.balance + (carried.get(bill.credit_card_id) ?? 0);
    carried.set(bill.credit_card_id, Math.min(owed, 0));
    if (owed <= 0) continue;
    payments.push({
      day: later(bill.due_date, today),
      movement: {
        ...NO_IDS,
        kind: 'BILL',
        account_id: bill.account_id,
        amount: -owed,
        title: `Fatura ${bill.card_name}`,
        date: bill.due_date,
        bill_id: bill.bill_id,
        credit_card_id: bill.credit_card_id,
      },
    });
  }
  return payments;
}

/**
 * The forecast (docs/decisions.md §10, cash flow): every account's balance now, moved day by day from today by what is
 * dated ahead (what is overdue moves today), reported from `start` to `end`; the total adds the accounts that count in
 * it. A day's movements come in kind order (entries, recurrences, bills, goals), then by date and title.
 */
export function projectCashFlow(input: ProjectionInput) {
  const { today, start, end, accounts } = input;
  const known = new Set(accounts.map((account) => account.id));
  const defaultAccount = accounts.find((account) => account.is_default)?.id;
  const dated: Array<{ day: CalendarDate; movement: Movement; shares: CostCenterShare[] }> = [];
  const add = (day: CalendarDate, movement: Movement, shares?: CostCenterShare[]) => {
    if (!known.has(movement.account_id) || day > end) return;
    dated.push({ day, movement, shares: shares ?? [{ cost_center_id: null, amount: movement.amount }] });
  };
  for (const entry of input.entries) {
    const { transaction_id, account_id, amount, title, date } = entry;
    add(
      later(date, today),
      { ...NO_IDS, kind: 'ENTRY', account_id, amount, title, date, transaction_id },
      entry.cost_centers,
    );
  }
  for (const occurrence of input.occurrences) {
    if (!occurrence.account_id) continue;
    const { series_id, account_id, amount, title, date } = occurrence;
    add(
      later(date, today),
      { ...NO_IDS, kind: 'RECURRENCE', account_id, amount, title, date, series_id },
      occurrence.cost_centers,
    );
  }
  for (const { day, movement } of billPayments(input.bills, today)) add(day, movement);
  if (defaultAccount) {
    for (const goal of input.contributions) {
      if (goal.date < today) continue;
      add(goal.date, {
        ...NO_IDS,
        kind: 'GOAL',
        account_id: defaultAccount,
        amount: -goal.amount,
        title: goal.title,
        date: goal.date,
        goal_id: goal.goal_id,
      });
    }
  }
  const byDay = new Map<CalendarDate, typeof dated>();
  for (const item of dated) {
    const list = byDay.get(item.day);
    if (list) list.push(item);
    else byDay.set(item.day, [item]);
  }
  const order = (kind: MovementKind) => MOVEMENT_KINDS.indexOf(kind);
  const position = new Map(accounts.map((account, index) => [account.id, index]));

  // per account, by position: the running balance, the first day below the threshold, the lowest from `start`
  const balances = accounts.map((account) => account.balance);
  const counted = accounts.flatMap((account, index) => (account.counts_in_total ? [index] : []));
  const firstShortfall: Array<CalendarDate | null> = accounts.map(() => null);
  const lowest = accounts.map(() => ({ balance: Number.POSITIVE_INFINITY, date: start }));
  const cumulative = new Map<string | null, number>();
  const daily: number[][] = accounts.map(() => []);
  const days = [];
  for (let day = today; day <= end; day = addDays(day, 1)) {
    const items = byDay.get(day) ?? [];
    items.sort(
      (a, b) =>
        order(a.movement.kind) - order(b.movement.kind) ||
        byText(a.movement.date, b.movement.date) ||
        byText(a.movement.title, b.movement.title),
    );
    const net = new Map<string | null, number>();
    for (const { movement, shares } of items) {
      balances[position.get(movement.account_id) as number] += movement.amount;
      if (input.byCostCenter) {
        for (const share of shares) net.set(share.cost_center_id, (net.get(share.cost_center_id) ?? 0) + share.amount);
      }
    }
    for (const [center, amount] of net) cumulative.set(center, (cumulative.get(center) ?? 0) + amount);
    for (let index = 0; index < balances.length; index++) {
      const balance = balances[index];
      if (firstShortfall[index] === null && balance < input.threshold) firstShortfall[index] = day;
      if (day >= start && balance < lowest[index].balance) lowest[index] = { balance, date: day };
    }
    if (day < start) continue;
    for (let index = 0; index < balances.length; index++) daily[index].push(balances[index]);
    days.push({
      date: day,
      total_balance: counted.reduce((total, index) => total + balances[index], 0),
      movements: items.map((item) => item.movement),
      ...(input.byCostCenter
        ? {
            cost_centers: [...cumulative.keys()]
              .sort((a, b) => (a === null ? 1 : b === null ? -1 : byText(a, b)))
              .map((center) => ({
                cost_center_id: center,
                net: net.get(center) ?? 0,
                cumulative: cumulative.get(center) ?? 0,
              })),
          }
        : {}),
    });
  }
  return {
    today,
    start_date: start,
    end_date: end,
    threshold: input.threshold,
    accounts: accounts.map((account, index) => ({
      account_id: account.id,
      name: account.name,
      counts_in_total: account.counts_in_total,
      balance: account.balance,
      first_shortfall_date: firstShortfall[index],
      lowest_balance: Number.isFinite(lowest[index].balance) ? lowest[index].balance : account.balance,
      lowest_balance_date: lowest[index].date,
      balances: daily[index],
    })),
    days,
  };
}

export type CashFlowForecast = ReturnType<typeof projectCashFlow>;
