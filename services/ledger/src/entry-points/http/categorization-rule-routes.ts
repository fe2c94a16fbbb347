import type { CallerContext } from '@finance/shared/context/signed-context';
import { categorizationRuleRoutes } from '@finance/shared/contracts/ledger/categorization-rules';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { createRule } from '../../domain/rules/create-rule.ts';
import {
  deleteCategorizationRule,
  getCategorizationRule,
  listCategorizationRules,
} from '../../domain/rules/manage-rules.ts';
import type { RecategorizationQueue } from '../../domain/rules/queue-recategorization.ts';
import { recoverRuleAnswer } from '../../domain/rules/rule-answer.ts';
import { updateCategorizationRule } from '../../domain/rules/update-rule.ts';

const route = lookupIn(categorizationRuleRoutes);

export function mountCategorizationRuleRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  // a queued recategorization leaves through the outbox: the command wakes the relay once it has committed
  const queue: RecategorizationQueue = {
    lanes: runtime.config.RECATEGORIZATION_LANES,
    relaySoon: () => runtime.outbox?.kick(),
  };
  // a retry of a command that died waiting for its recategorization rebuilds the answer from its job
  const recover = (point: unknown, _input: unknown, ctx: CallerContext) =>
    recoverRuleAnswer(orm.em.fork(), ctx, point, queue);
  mountRoute(
    router,
    route('createCategorizationRule'),
    ({ body }, ctx) => createRule(orm.em.fork(), ctx, body, queue),
    {
      recover,
    },
  );
  mountRoute(router, route('listCategorizationRules'), ({ query }, ctx) =>
    listCategorizationRules(orm.em.fork(), ctx, query),
  );
  mountRoute(router, route('getCategorizationRule'), ({ params }, ctx) =>
    getCategorizationRule(orm.em.fork(), ctx, params.id),
  );
  mountRoute(
    router,
    route('updateCategorizationRule'),
    ({ params, body }, ctx) => updateCategorizationRule(orm.em.fork(), ctx, params.id, body, queue),
    { recover },
  );
  mountRoute(router, route('deleteCategorizationRule'), ({ params }, ctx) =>
    deleteCategorizationRule(orm.em.fork(), ctx, params.id),
  );
}
