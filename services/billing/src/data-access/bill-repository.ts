import type { CalendarDate } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextSql } from '@finance/shared/db/context-scope';
import { outsideIdempotencyRecord } from '@finance/shared/db/idempotency-records';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BillDates } from '../domain/bills/bill-calendar.ts';

/** A stored bill as billing's domain reads it (camelCase, calendar dates as `YYYY-MM-DD`). */
export interface StoredBill extends BillDates {
  id: string;
  creditCardId: string;
  userId: string;
  profileId: string | null;
  rolledOverAt: Date | null;
  /** The bill the rollover carried this one's unpaid remainder into, if it owed anything. */
  carriedToBillId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const columns = (a = '') => {
  const q = a ? `${a}.` : '';
  return `${q}id, ${q}credit_card_id, ${q}user_id, ${q}profile_id,
  to_char(${q}reference_month, 'YYYY-MM-DD') as reference_month, to_char(${q}closing_date, 'YYYY-MM-DD') as closing_date,
  to_char(${q}due_date, 'YYYY-MM-DD') as due_date, ${q}rolled_over_at, ${q}carried_to_bill_id, ${q}created_at, ${q}updated_at`;
};

/** A `bills` row as PostgreSQL answers it (snake_case, like every `XRow`). */
interface BillRow {
  id: string;
  credit_card_id: string;
  user_id: string;
  profile_id: string | null;
  reference_month: string;
  closing_date: string;
  due_date: string;
  rolled_over_at: Date | null;
  carried_to_bill_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRow = (raw: BillRow): StoredBill => ({
  id: raw.id,
  creditCardId: raw.credit_card_id,
  userId: raw.user_id,
  profileId: raw.profile_id,
  referenceMonth: raw.reference_month,
  closingDate: raw.closing_date,
  dueDate: raw.due_date,
  rolledOverAt: raw.rolled_over_at,
  carriedToBillId: raw.carried_to_bill_id,
  createdAt: new Date(raw.created_at),
  updatedAt: new Date(raw.updated_at),
});

const run = runSql;

export const byMonth = (rows: StoredBill[]) => new Map(rows.map((row) => [row.referenceMonth, row as BillDates]));

export async function billsInMonths(
  em: EntityManager,
  cardId: string,
  from: CalendarDate | null,
  to: CalendarDate | null,
): Promise<StoredBill[]> {
  const raws = await run<BillRow>(
    em,
    `select ${columns()} from bills where credit_card_id = ?
       and (?::date is null or reference_month >= ?::date) and (?::date is null or reference_month <= ?::date)
     order by reference_month`,
    [cardId, from, from, to, to],
  );
  return raws.map(toRow);
}

/** A deleted card's bills leave the due work (rollover, announcements) with it, through its unique key. */
export async function retireBillsOfCard(em: EntityManager, cardId: string): Promise<void> {
  await run(em, 'update bills set card_deleted_at = now() where credit_card_id = ? and card_deleted_at is null', [
    cardId,
  ]);
}

export async function billsOfCards(em: EntityManager, cardIds: string[]): Promise<StoredBill[]> {
  if (cardIds.length === 0) return [];
  const raws = await run<BillRow>(em, `select ${columns()} from bills where credit_card_id in (?)`, [cardIds]);
  return raws.map(toRow);
}

/**
 * A bill by id on a live card; null when unknown or another context's. `by` names the row whose context must
 * be the caller's: the card's (`c`) or the bill's (`b`).
 */
export async function findBill(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  by: 'b' | 'c',
): Promise<StoredBill | null> {
  const context = contextSql(ctx, by);
  const raws = await run<BillRow>(
    em,
    `select ${columns('b')} from bills b
       join credit_cards c on c.id = b.credit_card_id and c.deleted_at is null
     where b.id = ? and ${context.sql}`,
    [id, ...context.params],
  );
  return raws[0] ? toRow(raws[0]) : null;
}

/** Creates the missing bills with the given dates in one statement; existing rows keep theirs (ids stay stable). */
export async function insertMissingBills(
  em: EntityManager,
  owner: { userId: string; profileId: string | null; cardId: string },
  bills: BillDates[],
): Promise<void> {
  if (bills.length === 0) return;
  const now = new Date();
  const values = bills.map(() => '(?, ?, ?, ?, ?::date, ?::date, ?::date, ?, ?)').join(', ');
  const params = bills.flatMap((bill) => [
    newId(),
    owner.userId,
    owner.profileId,
    owner.cardId,
    bill.referenceMonth,
    bill.closingDate,
    bill.dueDate,
    now,
    now,
  ]);
  await runSql(
    em,
    `insert into bills (id, user_id, profile_id, credit_card_id, reference_month, closing_date, due_date, created_at, updated_at)
       values ${values} on conflict (credit_card_id, reference_month) do nothing`,
    params,
  );
}

/** Sets new dates on existing bills in one statement. */
export async function updateBillDates(em: EntityManager, bills: Array<BillDates & { id: string }>): Promise<void> {
  if (bills.length === 0) return;
  const values = bills.map(() => '(?::uuid, ?::date, ?::date)').join(', ');
  await runSql(
    em,
    `update bills b set closing_date = v.closing_date, due_date = v.due_date, updated_at = now()
       from (values ${values}) as v (id, closing_date, due_date) where b.id = v.id`,
    bills.flatMap((bill) => [bill.id, bill.closingDate, bill.dueDate]),
  );
}

/**
 * A purchase dated into a past bill the rollover found settled makes it owe again: the next run looks at it
 * anew. A bill already carried keeps its mark (its remainder went with the one carry it may have).
 */
export async function reopenForRollover(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  // bookkeeping for the rollover, not the payment's outcome: a retried payment may run it again
  await outsideIdempotencyRecord(() =>
    runSql(
      em,
      `update bills set rolled_over_at = null, updated_at = now()
       where id in (?) and rolled_over_at is not null and carried_to_bill_id is null`,
      [ids],
    ),
  );
}

/** Marks bills as handled by the rollover, each owing one with the bill its remainder went to. */
export async function markRolledOver(
  em: EntityManager,
  ids: string[],
  carried: Array<{ id: string; carried_to: string }>,
): Promise<void> {
  if (ids.length === 0) return;
  await runSql(
    em,
    `update bills b set rolled_over_at = now(), carried_to_bill_id = c.carried_to
         from unnest(?::uuid[]) as s(id)
         left join jsonb_to_recordset(?::jsonb) as c(id uuid, carried_to uuid) on c.id = s.id
       where b.id = s.id`,
    [`{${ids.join(',')}}`, JSON.stringify(carried)],
  );
}

/** How long a claim on a bill lasts when its holder dies before releasing it. */
export const BILL_LEASE_SECONDS = 60;

export type BillClaim =
  | { claimed: true }
  | { claimed: false; reason: 'busy' }
  | { claimed: false; reason: 'carried'; holder: string };

/**
 * Claims one bill for a payment: locks the row, re-reads it under the lock and, when it is neither carried
 * nor claimed by a live payment or rollover, marks it busy for `BILL_LEASE_SECONDS` (one short transaction;
 * the caller commits before calling the ledger). `holder` is the last bill of the carry chain: the one that
 * now holds the remainder.
 */
export async function claimBillForPayment(em: EntityManager, id: string): Promise<BillClaim> {
  return outsideIdempotencyRecord(() =>
    em.transactional(async (tx) => {
      const [row] = await run<{ carried_to_bill_id: string | null; busy: boolean }>(
        tx,
        'select carried_to_bill_id, coalesce(busy_until > now(), false) as busy from bills where id = ? for update',
        [id],
      );
      if (!row) return { claimed: false, reason: 'busy' } as const;
      if (row.carried_to_bill_id) return { claimed: false, reason: 'carried', holder: await chainEnd(tx, id) } as const;
      if (row.busy) return { claimed: false, reason: 'busy' } as const;
      await run(tx, `update bills set busy_until = now() + interval '${BILL_LEASE_SECONDS} seconds' where id = ?`, [
        id,
      ]);
      return { claimed: true } as const;
    }),
  );
}

/** The bill at the end of `id`'s carry chain (itself when it was never carried). */
export async function chainEnd(em: EntityManager, id: string): Promise<string> {
  const [row] = await run<{ id: string }>(
    em,
    `with recursive chain(id, next, depth) as (
       select id, carried_to_bill_id, 0 from bills where id = ?
       union all
       select b.id, b.carried_to_bill_id, c.depth + 1 from bills b join chain c on b.id = c.next where c.depth < 1200
     )
     select id from chain order by depth desc limit 1`,
    [id],
  );
  return row?.id ?? id;
}

/** Claims, in one statement, the given bills that are not rolled over nor claimed; returns the ids claimed. */
export async function claimBillsForRollover(em: EntityManager, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await run<{ id: string }>(
    em,
    `update bills set busy_until = now() + interval '${BILL_LEASE_SECONDS} seconds'
       where id in (?) and rolled_over_at is null and (busy_until is null or busy_until <= now())
     returning id`,
    [ids],
  );
  return new Set(rows.map((row) => row.id));
}

export async function releaseBills(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await outsideIdempotencyRecord(() => run(em, 'update bills set busy_until = null where id in (?)', [ids]));
}

/** Per card, its oldest bill due before `dueBefore` that the rollover has not handled yet (one statement). */
export async function oldestDueBillPerCard(
  em: EntityManager,
  dueBefore: CalendarDate,
  skipCards: string[],
  limit: number,
): Promise<StoredBill[]> {
  const raws = await run<BillRow>(
    em,
    `select * from (
       select distinct on (b.credit_card_id) ${columns('b')} from bills b
         join credit_cards c on c.id = b.credit_card_id and c.deleted_at is null
       where b.rolled_over_at is null and b.card_deleted_at is null and b.due_date < ?::date
         and not (b.credit_card_id = any(?::uuid[]))
       order by b.credit_card_id, b.reference_month
     ) oldest order by due_date, id limit ?`,
    [dueBefore, `{${skipCards.join(',')}}`, limit],
  );
  return raws.map(toRow);
}

export type BillAnnouncement = 'closed' | 'overdue';

/**
 * Bills not announced yet whose closing date (closed) or due date (overdue) lies in `[from, to]`, leaving out
 * the `skipped` ones; overdue ones only while not carried (the caller checks each context's day and the balance).
 */
export async function billsToAnnounce(
  em: EntityManager,
  kind: BillAnnouncement,
  range: { from: CalendarDate; to: CalendarDate },
  skipped: string[],
  limit: number,
): Promise<StoredBill[]> {
  const condition =
    kind === 'closed'
      ? 'b.closed_event_at is null and b.closing_date between ?::date and ?::date'
      : 'b.overdue_event_at is null and b.due_date between ?::date and ?::date';
  const raws = await run<BillRow>(
    em,
    `select ${columns('b')} from bills b
       join credit_cards c on c.id = b.credit_card_id and c.deleted_at is null
     where ${condition} and b.card_deleted_at is null and not (b.id = any(?::uuid[])) order by b.id limit ?`,
    [range.from, range.to, `{${skipped.join(',')}}`, limit],
  );
  return raws.map(toRow);
}

/** Months after `month` whose stored bill the rollover already handled (a carry skips them). */
export async function rolledMonthsAfter(em: EntityManager, cardId: string, month: CalendarDate): Promise<Set<string>> {
  const rows = await run<{ month: string }>(
    em,
    `select to_char(reference_month, 'YYYY-MM-DD') as month from bills
       where credit_card_id = ? and reference_month > ?::date and rolled_over_at is not null`,
    [cardId, month],
  );
  return new Set(rows.map((row) => row.month));
}

/** Stamps a bill announced; true only for the caller that did it, so two runs record one event. */
export async function markAnnounced(em: EntityManager, billId: string, kind: BillAnnouncement): Promise<boolean> {
  const column = kind === 'closed' ? 'closed_event_at' : 'overdue_event_at';
  const rows = await run(em, `update bills set ${column} = now() where id = ? and ${column} is null returning id`, [
    billId,
  ]);
  return rows.length > 0;
}
