import type { CallerContext } from '@finance/shared/context/signed-context';
import type { DreGroup } from '@finance/shared/contracts/ledger/categories';
import { runSql } from '@finance/shared/db/sql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { visibleSql } from './reference-repository.ts';

export interface DreRow {
  category_id: string;
  category_name: string;
  dre_group: DreGroup | null;
  is_system: boolean;
  source: 'mapping' | 'default';
}

/** Every live category the context sees with the company's group, else the default one; system first, then by id. */
export async function selectDreMapping(em: EntityManager, ctx: CallerContext, profileId: string): Promise<DreRow[]> {
  const scope = visibleSql(ctx, 'c');
  return runSql<DreRow>(
    em,
    `select c.id as category_id, c.name as category_name,
       coalesce(m.dre_group, c.dre_group,
         case when c.is_expense then 'despesas_operacionais' when not c.is_expense then 'receita' end) as dre_group,
       c.user_id is null as is_system,
       case when m.dre_group is null then 'default' else 'mapping' end as source
     from categories c
     left join dre_mappings m on m.category_id = c.id and m.profile_id = ?
     where c.deleted_at is null and ${scope.sql}
     order by c.user_id is not null, c.id`,
    [profileId, ...scope.params],
  );
}

/** The ids among `ids` of live categories the context sees (system ones included). */
export async function visibleCategoryIds(em: EntityManager, ctx: CallerContext, ids: string[]) {
  const scope = visibleSql(ctx);
  return runSql<{ id: string }>(
    em,
    `select id from categories where id in (?) and deleted_at is null and ${scope.sql}`,
    [ids, ...scope.params],
  );
}

/** Sets a company's group for each category in one statement (the last writer's user and time). */
export async function upsertDreMappings(
  em: EntityManager,
  rows: Array<{ profileId: string; categoryId: string; userId: string; dreGroup: DreGroup; at: Date }>,
): Promise<void> {
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
  const params = rows.flatMap((row) => [row.profileId, row.categoryId, row.userId, row.dreGroup, row.at, row.at]);
  await runSql(
    em,
    `insert into dre_mappings (profile_id, category_id, user_id, dre_group, created_at, updated_at) values ${values}
     on conflict (profile_id, category_id) do update
       set dre_group = excluded.dre_group, user_id = excluded.user_id, updated_at = excluded.updated_at`,
    params,
  );
}
