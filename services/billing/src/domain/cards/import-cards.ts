import type { ImportCardsResult, ImportedCardInput } from '@finance/shared/clients/billing-import-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { contextSql } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Without a closing day from the bank, a provisional one 7 days before the due day (to be reviewed). */
export const provisionalClosingDay = (dueDay: number): number => ((dueDay - 8 + 31) % 31) + 1;

/**
 * Open-banking cards by (context, connection, external id) in one statement: due day, limit and name follow
 * the bank; a known closing day is set and clears the review flag; an unknown one keeps what the card has.
 * Rows that did not change are not touched; deleted cards stay deleted.
 */
export async function importCards(
  em: EntityManager,
  ctx: CallerContext,
  input: { connection_id: string; cards: ImportedCardInput[] },
): Promise<ImportCardsResult> {
  return em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const trx = tx.getTransactionContext();
    const rows = input.cards.map((card) => ({
      ...card,
      id: newId(),
      closing: card.closing_day ?? provisionalClosingDay(card.due_day),
      review: card.closing_day === null,
    }));
    const changed: Array<{ created: boolean }> = rows.length
      ? await connection.execute(
          `insert into credit_cards as c (id, user_id, profile_id, name, logo, account_id, closing_day, due_day, "limit",
             is_unlimited, needs_closing_date_review, connection_id, external_id, created_at, updated_at)
           select r.id, ?, ?, r.name, null, coalesce(r.account_id, e.account_id), r.closing, r.due_day, r."limit", false,
             r.review, ?, r.external_id, now(), now()
           from jsonb_to_recordset(?::jsonb) as r(id uuid, name text, account_id uuid, closing int, due_day int, "limit" bigint,
             review boolean, external_id text)
           left join credit_cards e on coalesce(e.profile_id, e.user_id) = ? and e.connection_id = ? and e.external_id = r.external_id
           where coalesce(r.account_id, e.account_id) is not null
           on conflict (coalesce(profile_id, user_id), connection_id, external_id) where external_id is not null do update set
             name = excluded.name,
             account_id = excluded.account_id,
             closing_day = case when excluded.needs_closing_date_review then c.closing_day else excluded.closing_day end,
             needs_closing_date_review = c.needs_closing_date_review and excluded.needs_closing_date_review,
             due_day = excluded.due_day,
             "limit" = excluded."limit",
             updated_at = now()
           where c.deleted_at is null and (c.name, c.account_id, c.closing_day, c.needs_closing_date_review, c.due_day, c."limit")
             is distinct from (excluded.name, excluded.account_id,
               case when excluded.needs_closing_date_review then c.closing_day else excluded.closing_day end,
               c.needs_closing_date_review and excluded.needs_closing_date_review, excluded.due_day, excluded."limit")
           returning (xmax = 0) as created`,
          [
            ctx.userId,
            ctx.profileId,
            input.connection_id,
            JSON.stringify(rows),
            ctx.profileId ?? ctx.userId,
            input.connection_id,
          ],
          'all',
          trx,
        )
      : [];
    const scope = contextSql(ctx);
    const cards: Array<{ id: string; external_id: string; account_id: string; deleted: boolean }> =
      await connection.execute(
        `select id, external_id, account_id, deleted_at is not null as deleted from credit_cards
         where connection_id = ? and external_id is not null and ${scope.sql} order by id`,
        [input.connection_id, ...scope.params],
        'all',
        trx,
      );
    const created = changed.filter((row) => row.created).length;
    return { created, updated: changed.length - created, cards };
  });
}
