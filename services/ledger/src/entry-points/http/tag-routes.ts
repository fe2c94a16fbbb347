import { tagRoutes } from '@finance/shared/contracts/ledger/tags';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import type { Router } from 'express';
import type { PageInput } from '../../domain/references/paginate.ts';
import { createTag, deleteTag, getTag, listTags, type TagInput, updateTag } from '../../domain/tags/manage-tags.ts';

const route = (operationId: string) => routeById(tagRoutes, operationId);

export function mountTagRoutes(router: Router, runtime: ServiceRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('listTags'), (input, ctx) => listTags(orm.em.fork(), ctx, input.query as PageInput));
  mountRoute(router, route('createTag'), (input, ctx) => createTag(orm.em.fork(), ctx, input.body as TagInput));
  mountRoute(router, route('getTag'), (input, ctx) => getTag(orm.em.fork(), ctx, String(input.params.id)));
  mountRoute(router, route('updateTag'), (input, ctx) =>
    updateTag(orm.em.fork(), ctx, String(input.params.id), input.body as TagInput),
  );
  mountRoute(router, route('deleteTag'), (input, ctx) => deleteTag(orm.em.fork(), ctx, String(input.params.id)));
}
