import type { PageQuery as PageInput } from '@finance/shared/contracts/common';
import { categorizationRuleRoutes } from '@finance/shared/contracts/ledger/categorization-rules';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute, Reply } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { type CreateRuleInput, createRule } from '../../domain/rules/create-rule.ts';
import {
  deleteCategorizationRule,
  getCategorizationRule,
  listCategorizationRules,
} from '../../domain/rules/manage-rules.ts';
import { type UpdateRuleInput, updateCategorizationRule } from '../../domain/rules/update-rule.ts';

const route = (operationId: string) => routeById(categorizationRuleRoutes, operationId);

export function mountCategorizationRuleRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('createCategorizationRule'), async (input, ctx) => {
    const { created, result } = await createRule(orm.em.fork(), ctx, input.body as CreateRuleInput);
    return new Reply(created ? 201 : 200, result);
  });
  mountRoute(router, route('listCategorizationRules'), (input, ctx) =>
    listCategorizationRules(orm.em.fork(), ctx, input.query as PageInput),
  );
  mountRoute(router, route('getCategorizationRule'), (input, ctx) =>
    getCategorizationRule(orm.em.fork(), ctx, String(input.params.id)),
  );
  mountRoute(router, route('updateCategorizationRule'), (input, ctx) =>
    updateCategorizationRule(orm.em.fork(), ctx, String(input.params.id), input.body as UpdateRuleInput),
  );
  mountRoute(router, route('deleteCategorizationRule'), (input, ctx) =>
    deleteCategorizationRule(orm.em.fork(), ctx, String(input.params.id)),
  );
}
