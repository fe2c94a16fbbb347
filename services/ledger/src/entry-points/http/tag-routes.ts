import { tagRoutes } from '@finance/shared/contracts/ledger/tags';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { createTag, deleteTag, getTag, listTags, updateTag } from '../../domain/tags/manage-tags.ts';

const route = lookupIn(tagRoutes);

export function mountTagRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('listTags'), ({ query }, ctx) => listTags(orm.em.fork(), ctx, query));
  mountRoute(router, route('createTag'), ({ body }, ctx) => createTag(orm.em.fork(), ctx, body));
  mountRoute(router, route('getTag'), ({ params }, ctx) => getTag(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('updateTag'), ({ params, body }, ctx) => updateTag(orm.em.fork(), ctx, params.id, body));
  mountRoute(router, route('deleteTag'), ({ params }, ctx) => deleteTag(orm.em.fork(), ctx, params.id));
}
