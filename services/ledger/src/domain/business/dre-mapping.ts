import type { CallerContext } from '@finance/shared/context/signed-context';
import type { DreGroup } from '@finance/shared/contracts/ledger/categories';
import { contextSql } from '@finance/shared/db/context-scope';
import { notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface DreChange {
  category_id: string;
  dre_group: DreGroup;
}

interface DreRow {
  category_id: string;
  category_name: string;
  dre_group: DreGroup | null;
  is_system: boolean;
  source: 'mapping' | 'default';
}

/** Business routes run in a company context only; the mapping belongs to the company profile. */
const profileOf = (ctx: CallerContext): string => ctx.profileId as string;

/** Every live category the company sees with its group (the company's choice, else the default); system first, then by id. */
export async function getDreMapping(em: EntityManager, ctx: CallerContext): Promise<DreRow[]> {
  const scope = contextSql(ctx, 'c');
  return em.getConnection().execute<DreRow[]>(
    `select c.id as category_id, c.name as category_name,
       coalesce(m.dre_group, c.dre_group,
         case when c.is_expense then 'despesas_operacionais' when not c.is_expense then 'receita' end) as dre_group,
       c.user_id is null as is_system,
       case when m.dre_group is null then 'default' else 'mapping' end as source
     from categories c
     left join dre_mappings m on m.category_id = c.id and m.profile_id = ?
     where c.deleted_at is null and (c.user_id is null or (${scope.sql}))
     order by c.user_id is not null, c.id`,
    [profileOf(ctx), ...scope.params],
    'all',
    em.getTransactionContext(),
  );
}

/** Sets the listed groups in one transaction: any category not visible to the company is 404 and nothing changes. */
export async function updateDreMapping(em: EntityManager, ctx: CallerContext, changes: DreChange[]) {
  await em.transactional(async (tx) => {
    const conn = tx.getConnection();
    const trx = tx.getTransactionContext();
    const ids = changes.map((change) => change.category_id);
    const scope = contextSql(ctx);
    const visible = await conn.execute<{ id: string }[]>(
      `select id from categories where id in (?) and deleted_at is null and (user_id is null or (${scope.sql}))`,
      [ids, ...scope.params],
      'all',
      trx,
    );
    if (visible.length !== ids.length) throw notFound('Categoria não encontrada (category_id)');
    const now = new Date();
    const rows = changes.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
    const params = changes.flatMap((change) => [
      profileOf(ctx),
      change.category_id,
      ctx.userId,
      change.dre_group,
      now,
      now,
    ]);
    await conn.execute(
      `insert into dre_mappings (profile_id, category_id, user_id, dre_group, created_at, updated_at) values ${rows}
       on conflict (profile_id, category_id) do update
         set dre_group = excluded.dre_group, user_id = excluded.user_id, updated_at = excluded.updated_at`,
      params,
      'run',
      trx,
    );
  });
  return getDreMapping(em, ctx);
}
