// Investment yield report (docs/decisions.md §10) from per-position daily balance snapshots. Choices the rules leave open:
// - Only snapshots dated on or before the reference date count; two snapshots of one position on one day: the last wins.
// - A balance that is not a safe integer is unusable: the day still counts, but that position is `unknown` in any
//   period that needs it and is left out of positions, by_type and total_balance_cents.
// - Period labels: "Hoje", "Anterior", "Últimos 7 dias", "Mês atual". `last_7_days` and `month_to_date` look back
//   from the latest snapshot day (not the reference date), so they stay consistent with `today`.
// - A period whose end days do not both exist is not computable: from_date/to_date hold the days that exist
//   (null otherwise), interval_days and every count are 0.
// - A period counts the positions alive across it: a snapshot on or before `to` and one on or after `from`.
//   items_missing = positions lacking at least one end (new + closed + unknown).
// - Percentages are rounded half away from zero to 2 decimals; 0 when the base is not positive.
// - positions and by_type hold the positions present on the latest snapshot day (closed ones drop out); their
//   yield is today's; a position's `label` is its type label. Ties order by name, then investment_id.
// - estimated_ready_date: when available, the second snapshot day (when the report became ready).
// - first_snapshot_date/latest_snapshot_date are null without snapshots.
import { addDays, type CalendarDate, daysBetween, parseCalendarDate, startOfMonth } from '@finance/shared/calendar';

export type InvestmentSnapshot = {
  investmentId: string;
  name: string;
  bankName: string;
  type: string;
  subtype: string | null;
  date: CalendarDate;
  balanceCents: number;
};

export type YieldPeriod = {
  computable: boolean;
  coverage_percent: number;
  from_date: CalendarDate | null;
  to_date: CalendarDate | null;
  interval_days: number;
  label: string;
  yield_cents: number;
  yield_percent: number;
  items_missing: number;
  positions_closed: number;
  positions_computed: number;
  positions_new: number;
  positions_total: number;
  positions_unknown: number;
};

export type YieldPosition = {
  investment_id: string;
  name: string;
  bank_name: string;
  label: string;
  type: string;
  subtype: string | null;
  basis: 'snapshot';
  balance_cents: number;
  yield_cents: number;
  yield_percent: number;
};

export type YieldByType = { label: string; balance_cents: number; yield_cents: number };

export type YieldReport = {
  available: boolean;
  reason: string;
  by_type: YieldByType[];
  positions: YieldPosition[];
  today: YieldPeriod;
  previous: YieldPeriod;
  last_7_days: YieldPeriod;
  month_to_date: YieldPeriod;
  estimated_ready_date: CalendarDate;
  first_snapshot_date: CalendarDate | null;
  latest_snapshot_date: CalendarDate | null;
  snapshot_days: number;
  total_balance_cents: number;
};

export type YieldReportInput = {
  snapshots: InvestmentSnapshot[];
  referenceDate: CalendarDate;
  limit?: number;
};

export const YIELD_POSITIONS_DEFAULT_LIMIT = 20;
export const YIELD_POSITIONS_MAX_LIMIT = 50;
export const MIN_SNAPSHOT_DAYS = 2;

export const PERIOD_LABELS = {
  today: 'Hoje',
  previous: 'Anterior',
  last_7_days: 'Últimos 7 dias',
  month_to_date: 'Mês atual',
} as const;

export const INVESTMENT_TYPE_LABELS: Readonly<Record<string, string>> = {
  FIXED_INCOME: 'Renda fixa',
  VARIABLE_INCOME: 'Renda variável',
  EQUITY: 'Ações',
  ETF: 'ETFs',
  MUTUAL_FUND: 'Fundos de investimento',
  SECURITY: 'Previdência',
  PENSION: 'Previdência',
  COE: 'COE',
  CRYPTO: 'Criptoativos',
  OTHER: 'Outros',
};

const OTHER_LABEL = 'Outros';

export function investmentTypeLabel(type: string | null | undefined): string {
  return (type && INVESTMENT_TYPE_LABELS[type.toUpperCase()]) || OTHER_LABEL;
}

type Snapshot = InvestmentSnapshot & { usable: boolean };
type DaySnapshots = Map<string, Snapshot>;

type PeriodResult = {
  period: YieldPeriod;
  /** Yield per investment id of the computed positions. */
  yields: Map<string, { yieldCents: number; base: number }>;
};

function roundedPercent(numerator: number, denominator: number): number {
  if (denominator <= 0) return 0;
  // BigInt keeps cents × 10^4 exact beyond 2^53; rounds half away from zero.
  const scaled = BigInt(numerator) * 10_000n;
  const base = BigInt(denominator);
  const quotient = scaled / base;
  const twiceRemainder = (scaled % base) * 2n;
  const rounded = twiceRemainder >= base ? quotient + 1n : twiceRemainder <= -base ? quotient - 1n : quotient;
  return Number(rounded) / 100;
}

function emptyPeriod(label: string, from: CalendarDate | null, to: CalendarDate | null): PeriodResult {
  return {
    period: {
      computable: false,
      coverage_percent: 0,
      from_date: from,
      to_date: to,
      interval_days: 0,
      label,
      yield_cents: 0,
      yield_percent: 0,
      items_missing: 0,
      positions_closed: 0,
      positions_computed: 0,
      positions_new: 0,
      positions_total: 0,
      positions_unknown: 0,
    },
    yields: new Map(),
  };
}

function computePeriod(
  label: string,
  from: CalendarDate | null,
  to: CalendarDate | null,
  byDay: Map<CalendarDate, DaySnapshots>,
  lifetimes: Map<string, { first: CalendarDate; last: CalendarDate }>,
): PeriodResult {
  if (from === null || to === null) return emptyPeriod(label, from, to);
  const atFrom = byDay.get(from) ?? new Map<string, Snapshot>();
  const atTo = byDay.get(to) ?? new Map<string, Snapshot>();
  const yields = new Map<string, { yieldCents: number; base: number }>();
  let computed = 0;
  let added = 0;
  let closed = 0;
  let unknown = 0;
  let yieldCents = 0;
  let base = 0;
  for (const [investmentId, life] of lifetimes) {
    if (life.first > to || life.last < from) continue;
    const start = atFrom.get(investmentId);
    const end = atTo.get(investmentId);
    if (start?.usable && end?.usable) {
      computed++;
      const positionYield = end.balanceCents - start.balanceCents;
      yields.set(investmentId, { yieldCents: positionYield, base: start.balanceCents });
      yieldCents += positionYield;
      base += start.balanceCents;
    } else if (!start && end?.usable) {
      added++;
    } else if (start?.usable && !end) {
      closed++;
    } else {
      unknown++;
    }
  }
  const total = computed + added + closed + unknown;
  return {
    period: {
      computable: computed > 0,
      coverage_percent: roundedPercent(computed, total),
      from_date: from,
      to_date: to,
      interval_days: daysBetween(from, to),
      label,
      yield_cents: yieldCents,
      yield_percent: roundedPercent(yieldCents, base),
      items_missing: total - computed,
      positions_closed: closed,
      positions_computed: computed,
      positions_new: added,
      positions_total: total,
      positions_unknown: unknown,
    },
    yields,
  };
}

/** Last snapshot day on or before `limit` (days sorted ascending). */
export function lastDayOnOrBefore(days: CalendarDate[], limit: CalendarDate): CalendarDate | null {
  for (let i = days.length - 1; i >= 0; i--) if (days[i] <= limit) return days[i];
  return null;
}

/** Once available, the second snapshot day; before, the day after the first one (or after the reference date). */
export function estimatedReadyDate(days: CalendarDate[], referenceDate: CalendarDate): CalendarDate {
  return days.length >= MIN_SNAPSHOT_DAYS ? days[1] : addDays(days.length > 0 ? days[0] : referenceDate, 1);
}

function byBalanceThenName(a: YieldPosition, b: YieldPosition): number {
  if (a.balance_cents !== b.balance_cents) return b.balance_cents - a.balance_cents;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.investment_id < b.investment_id ? -1 : a.investment_id > b.investment_id ? 1 : 0;
}

function unavailableReason(snapshotDays: number): string {
  if (snapshotDays >= MIN_SNAPSHOT_DAYS) return '';
  if (snapshotDays === 0) return 'Ainda não há snapshots de investimentos até a data de referência.';
  return 'É preciso ter snapshots de investimentos em pelo menos 2 dias para calcular o rendimento; há apenas 1.';
}

export function computeYieldReport(input: YieldReportInput): YieldReport {
  const referenceDate = parseCalendarDate(input.referenceDate);
  if (referenceDate === null || referenceDate !== input.referenceDate) {
    throw new RangeError(`invalid reference date: ${String(input.referenceDate)}`);
  }
  const limit = input.limit ?? YIELD_POSITIONS_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > YIELD_POSITIONS_MAX_LIMIT) {
    throw new RangeError(`limit must be an integer from 1 to ${YIELD_POSITIONS_MAX_LIMIT}: ${limit}`);
  }

  const byDay = new Map<CalendarDate, DaySnapshots>();
  const lifetimes = new Map<string, { first: CalendarDate; last: CalendarDate }>();
  for (const snapshot of input.snapshots) {
    const date = parseCalendarDate(snapshot.date);
    if (date === null || date > referenceDate) continue;
    const day = byDay.get(date) ?? new Map<string, Snapshot>();
    byDay.set(date, day);
    day.set(snapshot.investmentId, { ...snapshot, date, usable: Number.isSafeInteger(snapshot.balanceCents) });
    const life = lifetimes.get(snapshot.investmentId);
    if (!life) lifetimes.set(snapshot.investmentId, { first: date, last: date });
    else {
      if (date < life.first) life.first = date;
      if (date > life.last) life.last = date;
    }
  }

  const days = [...byDay.keys()].sort();
  const count = days.length;
  const latest = count > 0 ? days[count - 1] : null;
  const at = (index: number) => (index >= 0 && index < count ? days[index] : null);

  const today = computePeriod(PERIOD_LABELS.today, at(count - 2), latest, byDay, lifetimes);
  const previous = computePeriod(PERIOD_LABELS.previous, at(count - 3), at(count - 2), byDay, lifetimes);
  const last7 = computePeriod(
    PERIOD_LABELS.last_7_days,
    latest === null ? null : lastDayOnOrBefore(days, addDays(latest, -7)),
    latest,
    byDay,
    lifetimes,
  );
  const monthToDate = computePeriod(
    PERIOD_LABELS.month_to_date,
    latest === null ? null : lastDayOnOrBefore(days, addDays(startOfMonth(latest), -1)),
    latest,
    byDay,
    lifetimes,
  );

  const latestPositions: YieldPosition[] = [];
  for (const snapshot of latest === null ? [] : (byDay.get(latest)?.values() ?? [])) {
    if (!snapshot.usable) continue;
    const todayYield = today.yields.get(snapshot.investmentId);
    latestPositions.push({
      investment_id: snapshot.investmentId,
      name: snapshot.name,
      bank_name: snapshot.bankName,
      label: investmentTypeLabel(snapshot.type),
      type: snapshot.type,
      subtype: snapshot.subtype,
      basis: 'snapshot',
      balance_cents: snapshot.balanceCents,
      yield_cents: todayYield?.yieldCents ?? 0,
      yield_percent: todayYield ? roundedPercent(todayYield.yieldCents, todayYield.base) : 0,
    });
  }
  latestPositions.sort(byBalanceThenName);

  const byType = new Map<string, YieldByType>();
  for (const position of latestPositions) {
    const group = byType.get(position.label) ?? { label: position.label, balance_cents: 0, yield_cents: 0 };
    group.balance_cents += position.balance_cents;
    group.yield_cents += position.yield_cents;
    byType.set(position.label, group);
  }

  const available = count >= MIN_SNAPSHOT_DAYS;
  return {
    available,
    reason: unavailableReason(count),
    by_type: [...byType.values()].sort((a, b) =>
      a.balance_cents !== b.balance_cents ? b.balance_cents - a.balance_cents : a.label < b.label ? -1 : 1,
    ),
    positions: latestPositions.slice(0, limit),
    today: today.period,
    previous: previous.period,
    last_7_days: last7.period,
    month_to_date: monthToDate.period,
    estimated_ready_date: estimatedReadyDate(days, referenceDate),
    first_snapshot_date: count > 0 ? days[0] : null,
    latest_snapshot_date: latest,
    snapshot_days: count,
    total_balance_cents: latestPositions.reduce((sum, position) => sum + position.balance_cents, 0),
  };
}
