import { contextKey, contextOfRef } from '@finance/shared/db/context-scope';
import { runSql } from '@finance/shared/db/sql';
import type { ContextRef } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Keeps the latest zone of a context (an older event arriving late changes nothing); its limits' next checks, due at
 * its midnights, are worked out again by the next run.
 */
export async function saveContextTimeZone(
  em: EntityManager,
  context: ContextRef,
  timeZone: string,
  changedAt: string,
): Promise<void> {
  const key = contextKey(contextOfRef(context));
  const saved = await runSql(
    em,
    `insert into context_time_zones (context_id, user_id, profile_id, time_zone, changed_at) values (?, ?, ?, ?, ?)
     on conflict (context_id) do update set time_zone = excluded.time_zone, changed_at = excluded.changed_at
       where context_time_zones.changed_at <= excluded.changed_at
     returning context_id`,
    [key, context.user_id, context.profile_id, timeZone, changedAt],
  );
  if (saved.length > 0) await runSql(em, 'update spending_limits set next_check_at = null where context_id = ?', [key]);
}

/** SQL for the zone of the context of a row aliased `alias` (with user_id and profile_id), default São Paulo. */
export const zoneOfRow = (alias: string) =>
  `coalesce((select z.time_zone from context_time_zones z where z.context_id = ${alias}.context_id), 'America/Sao_Paulo')`;
