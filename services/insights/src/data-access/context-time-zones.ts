import { runSql } from '@finance/shared/db/sql';
import type { ContextRef } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Keeps the latest zone of a context (an older event arriving late changes nothing). */
export async function saveContextTimeZone(
  em: EntityManager,
  context: ContextRef,
  timeZone: string,
  changedAt: string,
): Promise<void> {
  await runSql(
    em,
    `insert into context_time_zones (context_id, user_id, profile_id, time_zone, changed_at) values (?, ?, ?, ?, ?)
     on conflict (context_id) do update set time_zone = excluded.time_zone, changed_at = excluded.changed_at
       where context_time_zones.changed_at <= excluded.changed_at`,
    [context.profile_id ?? context.user_id, context.user_id, context.profile_id, timeZone, changedAt],
  );
}

/** SQL for the zone of the context of a row aliased `alias` (with user_id and profile_id), default São Paulo. */
export const zoneOfRow = (alias: string) =>
  `coalesce((select z.time_zone from context_time_zones z where z.context_id = ${alias}.context_id), 'America/Sao_Paulo')`;
