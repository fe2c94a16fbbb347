import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { DreMappingChange } from '@finance/shared/contracts/ledger/business';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectDreMapping, upsertDreMappings, visibleCategoryIds } from '../../data-access/dre-mapping-repository.ts';

/** Business routes run in a company context only; the mapping belongs to the company profile. */
const profileOf = (ctx: CallerContext): string => ctx.profileId as string;

/** Every live category the company sees with its group (the company's choice, else the default); system first, then by id. */
export async function getDreMapping(em: EntityManager, ctx: CallerContext) {
  return selectDreMapping(em, ctx, profileOf(ctx));
}

/** Sets the listed groups in one transaction: any category not visible to the company is 404 and nothing changes. */
export async function updateDreMapping(em: EntityManager, ctx: CallerContext, changes: DreMappingChange[]) {
  return em.transactional(async (tx) => {
    const ids = changes.map((change) => change.category_id);
    const visible = await visibleCategoryIds(tx, ctx, ids);
    if (visible.length !== ids.length) throw notFound('Categoria não encontrada (category_id)');
    const at = now();
    await upsertDreMappings(
      tx,
      changes.map((change) => ({
        profileId: profileOf(ctx),
        categoryId: change.category_id,
        userId: ctx.userId,
        dreGroup: change.dre_group,
        at,
      })),
    );
    return keepAnswer(await getDreMapping(tx, ctx));
  });
}
