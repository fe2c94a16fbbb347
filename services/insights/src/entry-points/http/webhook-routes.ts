import { webhookRoutes } from '@finance/shared/contracts/insights/webhooks';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { InsightsRuntime } from '../../config.ts';
import { resolveHost } from '../../data-access/webhook-sender.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
} from '../../domain/webhooks/manage-webhooks.ts';

const route = lookupIn(webhookRoutes);

export function mountWebhookRoutes(router: Router, runtime: InsightsRuntime): void {
  const { orm } = runtime;
  const config = runtime.config;
  const policy = { allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS, resolve: resolveHost };

  mountRoute(router, route('createWebhook'), ({ body }, ctx) => createWebhook(orm.em.fork(), ctx, body, policy));
  mountRoute(router, route('listWebhooks'), ({ query }, ctx) => listWebhooks(orm.em.fork(), ctx, query));
  mountRoute(router, route('getWebhook'), ({ params }, ctx) => getWebhook(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('deleteWebhook'), ({ params }, ctx) => deleteWebhook(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('listWebhookDeliveries'), ({ params, query }, ctx) =>
    listDeliveries(orm.em.fork(), ctx, params.id, query),
  );
  mountRoute(router, route('retryWebhookDelivery'), ({ params }, ctx) =>
    retryDelivery(orm.em.fork(), ctx, params.id, params.deliveryId),
  );
}
