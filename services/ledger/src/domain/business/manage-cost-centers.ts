import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { CostCenterFields } from '@finance/shared/contracts/ledger/business';
import { iso, ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { flushKeepingAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type CostCenter, CostCenterSchema } from '../../data-access/entities/cost-center.ts';
import { ownWhere, pageById } from '../../data-access/reference-repository.ts';

const NOT_FOUND = 'Centro de custo não encontrado';

export const costCenterView = (costCenter: CostCenter) => ({
  id: costCenter.id,
  name: costCenter.name,
  code: costCenter.code ?? null,
  profile_id: costCenter.profileId ?? null,
  user_id: costCenter.userId,
  createdAt: iso(costCenter.createdAt),
  updatedAt: iso(costCenter.updatedAt),
});

async function findCostCenter(em: EntityManager, ctx: CallerContext, id: string): Promise<CostCenter> {
  const costCenter = await em.findOne(CostCenterSchema, { id, ...ownWhere(ctx) });
  if (!costCenter) throw notFound(NOT_FOUND);
  return costCenter;
}

export async function createCostCenter(em: EntityManager, ctx: CallerContext, input: CostCenterFields) {
  const costCenter = em.create(CostCenterSchema, {
    ...ownerOf(ctx),
    name: input.name as string,
    code: input.code ?? null,
    deletedAt: null,
  });
  return flushKeepingAnswer(em, () => costCenterView(costCenter));
}

export async function updateCostCenter(em: EntityManager, ctx: CallerContext, id: string, input: CostCenterFields) {
  const costCenter = await findCostCenter(em, ctx, id);
  if (input.name !== undefined) costCenter.name = input.name;
  if (input.code !== undefined) costCenter.code = input.code;
  return flushKeepingAnswer(em, () => costCenterView(costCenter));
}

export async function deleteCostCenter(em: EntityManager, ctx: CallerContext, id: string) {
  const costCenter = await findCostCenter(em, ctx, id);
  const view = costCenterView(costCenter);
  costCenter.deletedAt = now();
  return flushKeepingAnswer(em, () => view);
}

export async function getCostCenter(em: EntityManager, ctx: CallerContext, id: string) {
  return costCenterView(await findCostCenter(em, ctx, id));
}

export async function listCostCenters(em: EntityManager, ctx: CallerContext, page: PageQuery) {
  const rows = await pageById(em, CostCenterSchema, ownWhere(ctx), page.limit, afterIdOf(page.cursor));
  return toPage(rows, page.limit, costCenterView);
}
