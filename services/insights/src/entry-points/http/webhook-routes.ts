import { webhookRoutes } from '@finance/shared/contracts/insights/webhooks';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { InsightsConfig, InsightsRuntime } from '../../config.ts';
import { resolveHost } from '../../data-access/webhook-sender.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  type WebhookInput,
} from '../../domain/webhooks/manage-webhooks.ts';

const route = (operationId: string) => routeById(webhookRoutes, operationId);
type Page = { limit: number; cursor?: string };

export function mountWebhookRoutes(router: Router, runtime: InsightsRuntime): void {
  const { orm } = runtime;
  const config = runtime.config;
  const policy = { allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS, resolve: resolveHost };
  const id = (params: Record<string, unknown>) => String(params.id);

  mountRoute(router, route('createWebhook'), (input, ctx) =>
    createWebhook(orm.em.fork(), ctx, input.body as WebhookInput, policy),
  );
  mountRoute(router, route('listWebhooks'), (input, ctx) => listWebhooks(orm.em.fork(), ctx, input.query as Page));
  mountRoute(router, route('getWebhook'), (input, ctx) => getWebhook(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('deleteWebhook'), (input, ctx) => deleteWebhook(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('listWebhookDeliveries'), (input, ctx) =>
    listDeliveries(orm.em.fork(), ctx, id(input.params), input.query as Page),
  );
  mountRoute(router, route('retryWebhookDelivery'), (input, ctx) =>
    retryDelivery(orm.em.fork(), ctx, id(input.params), String(input.params.deliveryId)),
  );
}
