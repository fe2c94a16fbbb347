import type { CallerContext } from '@finance/shared/context/signed-context';
import { CONFIG_FLAGS } from '@finance/shared/contracts/ledger/personal-config';
import { newId } from '@finance/shared/db/base-entity';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One upsert of the context's preferences: inserted with every flag (`flags`, in CONFIG_FLAGS order), or only
 * `columns` changed on the existing row. Answers the stored time zone and the instant the row was written.
 */
export async function upsertPersonalConfig(
  em: EntityManager,
  ctx: CallerContext,
  input: { flags: boolean[]; columns: string[]; timeZone: string | null; threshold: number; at: Date },
): Promise<{ time_zone: string | null; changed_at: string }> {
  const [row] = await runSql<{ time_zone: string | null; changed_at: string }>(
    em,
    `insert into personal_configs (id, user_id, profile_id, ${CONFIG_FLAGS.join(', ')}, time_zone, cash_flow_threshold,
       created_at, updated_at)
     values (?, ?, ?, ${CONFIG_FLAGS.map(() => '?').join(', ')}, ?, ?, ?, ?)
     on conflict (context_id) do update set
       ${[...input.columns.map((column) => `${column} = excluded.${column}`), 'updated_at = excluded.updated_at'].join(', ')}
     returning time_zone,
       to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as changed_at`,
    [newId(), ctx.userId, ctx.profileId, ...input.flags, input.timeZone, input.threshold, input.at, input.at],
  );
  return row;
}
