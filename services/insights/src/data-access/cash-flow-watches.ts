import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { ContextRef } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import { zoneOfRow } from './context-time-zones.ts';

/**
 * The contexts' forecasts are to be worked out again as soon as can be (their inputs changed): one statement for any
 * number of contexts, a watch made for a context met the first time.
 */
export async function markForecastsDue(em: EntityManager, contexts: ContextRef[]): Promise<void> {
  const distinct = [...new Map(contexts.map((ref) => [`${ref.user_id}:${ref.profile_id ?? ''}`, ref])).values()];
  if (distinct.length === 0) return;
  await runSql(
    em,
    `insert into cash_flow_watches (user_id, profile_id, check_at)
     select c.user_id, c.profile_id, null from jsonb_to_recordset(?::jsonb) as c(user_id uuid, profile_id uuid)
     on conflict (context_id) do update set check_at = null, marks = cash_flow_watches.marks + 1, updated_at = now()`,
    [JSON.stringify(distinct)],
  );
}

/** A watched context whose alerts are due. */
export interface DueWatch {
  user_id: string;
  profile_id: string | null;
  context_id: string;
  check_at: string;
  marks: string;
}

const CHECK_AT = `coalesce(w.check_at, '-infinity'::timestamptz)`;

/** A batch of the watches due by `until` after `cursor` (check instant, context) through the index of check instants. */
export async function watchesDue(
  em: EntityManager,
  until: string,
  cursor: { at: string; context: string },
  size: number,
): Promise<DueWatch[]> {
  return runSql<DueWatch>(
    em,
    `select w.user_id, w.profile_id, w.context_id, ${CHECK_AT}::text as check_at, w.marks::text as marks
     from cash_flow_watches w
     where ${CHECK_AT} <= ?::timestamptz and (${CHECK_AT}, w.context_id) > (?::timestamptz, ?::uuid)
     order by ${CHECK_AT}, w.context_id limit ?`,
    [until, cursor.at, cursor.context, size],
  );
}

/**
 * The watch is checked next when `day` begins in its context's zone, unless an input changed since it was read as
 * due (its `marks` moved on): then it stays due.
 */
export async function scheduleWatch(em: EntityManager, ctx: CallerContext, marks: string, day: string): Promise<void> {
  const scope = contextSql(ctx, 'w');
  await runSql(
    em,
    `update cash_flow_watches w set check_at = ?::date::timestamp at time zone ${zoneOfRow('w')}, updated_at = now()
     where ${scope.sql} and w.marks = ?`,
    [day, ...scope.params, marks],
  );
}

/** An account's alert state: short since its episode's notification, until its projection recovers. */
export interface AlertRow {
  account_id: string;
  short: boolean;
  episode: number;
}

/** The context's alert states, locked until the evaluation commits (one evaluation of a context at a time). */
export async function lockedAlerts(em: EntityManager, ctx: CallerContext): Promise<AlertRow[]> {
  const scope = contextSql(ctx);
  return runSql<AlertRow>(
    em,
    `select account_id, short, episode from cash_flow_alerts where ${scope.sql} order by account_id for update`,
    scope.params,
  );
}

/** Writes the accounts' alert states as worked out (one statement). */
export async function saveAlerts(
  em: EntityManager,
  ctx: CallerContext,
  rows: Array<AlertRow & { shortfall_date: string | null }>,
): Promise<void> {
  if (rows.length === 0) return;
  await runSql(
    em,
    `insert into cash_flow_alerts (user_id, profile_id, account_id, short, episode, shortfall_date)
     select ?, ?, r.account_id, r.short, r.episode, r.shortfall_date
     from jsonb_to_recordset(?::jsonb) as r(account_id uuid, short boolean, episode int, shortfall_date date)
     on conflict (context_id, account_id) do update set short = excluded.short, episode = excluded.episode,
       shortfall_date = excluded.shortfall_date, updated_at = now()`,
    [ctx.userId, ctx.profileId, JSON.stringify(rows)],
  );
}
