import { randomBytes } from 'node:crypto';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { CreateWebhookBody } from '@finance/shared/contracts/insights/webhooks';
import { newId } from '@finance/shared/db/base-entity';
import { afterIdOf, idPage } from '@finance/shared/db/pagination';
import { conflict, invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import { Reply } from '@finance/shared/http/service-routes';
import { QUEUES, type WebhookDeliveryJob } from '@finance/shared/queue/catalogue';
import { recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  attemptsOf,
  deleteWebhookRow,
  findDelivery,
  findWebhook,
  insertWebhook,
  listDeliveryRows,
  listWebhookRows,
  markDeliveryPending,
} from '../../data-access/webhook-repository.ts';
import { isPublicAddress, TARGET_REFUSED } from './target-address.ts';
import { deliveryView, webhookView } from './webhook-view.ts';

const WEBHOOK_NOT_FOUND = 'Webhook não encontrado';
const DELIVERY_NOT_FOUND = 'Entrega não encontrada';

export interface TargetPolicy {
  /** Operator setting: http and loopback, private or link-local targets allowed (tests, local development). */
  allowPrivateTargets: boolean;
  /** Every address the host name resolves to. */
  resolve: (hostname: string) => Promise<string[]>;
}

/** Refuses a target that is not https or resolves to a non-public address, unless the operator allows it. */
export async function assertAllowedTarget(url: string, policy: TargetPolicy): Promise<void> {
  if (policy.allowPrivateTargets) return;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw invalidField('url', 'A URL do webhook deve usar https');
  let addresses: string[];
  try {
    addresses = await policy.resolve(parsed.hostname);
  } catch {
    throw invalidField('url', 'Não foi possível resolver o endereço da URL do webhook');
  }
  if (addresses.length === 0 || addresses.some((address) => !isPublicAddress(address))) {
    throw invalidField('url', TARGET_REFUSED);
  }
}

/** Creates an enabled webhook; the signing secret is in this answer only. */
export async function createWebhook(
  em: EntityManager,
  ctx: CallerContext,
  input: CreateWebhookBody,
  policy: TargetPolicy,
) {
  await assertAllowedTarget(input.url, policy);
  const secret = `whsec_${randomBytes(32).toString('hex')}`;
  return em.transactional(async (tx) => {
    const row = await insertWebhook(tx, {
      id: newId(),
      user_id: ctx.userId,
      profile_id: ctx.profileId,
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description || null,
      secret,
    });
    return keepAnswer({ ...webhookView(row), secret });
  });
}

export async function listWebhooks(em: EntityManager, ctx: CallerContext, query: PageQuery) {
  const rows = await listWebhookRows(em, ctx, afterIdOf(query.cursor), query.limit + 1);
  const { items, next_cursor } = idPage(rows, query.limit);
  return { data: items.map(webhookView), next_cursor };
}

export async function getWebhook(em: EntityManager, ctx: CallerContext, id: string) {
  const row = await findWebhook(em, ctx, id);
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  return webhookView(row);
}

/** Deletes the webhook and its deliveries; a delivery already queued finds nothing and sends nothing. */
export async function deleteWebhook(em: EntityManager, ctx: CallerContext, id: string) {
  return em.transactional(async (tx) => {
    if (!(await deleteWebhookRow(tx, ctx, id))) throw notFound(WEBHOOK_NOT_FOUND);
    return keepAnswer({ deleted: true });
  });
}

/** Newest first; each delivery carries its attempts. */
export async function listDeliveries(em: EntityManager, ctx: CallerContext, webhookId: string, query: PageQuery) {
  if (!(await findWebhook(em, ctx, webhookId))) throw notFound(WEBHOOK_NOT_FOUND);
  const rows = await listDeliveryRows(em, webhookId, afterIdOf(query.cursor), query.limit + 1);
  const { items, next_cursor } = idPage(rows, query.limit);
  const attempts = await attemptsOf(
    em,
    items.map((row) => row.id),
  );
  return { data: items.map((row) => deliveryView(row, attempts)), next_cursor };
}

/** Sends a delivery again now, whatever its state (a succeeded one is redelivered with the same event id). */
export async function retryDelivery(em: EntityManager, ctx: CallerContext, webhookId: string, deliveryId: string) {
  return em.transactional(async (tx) => {
    const webhook = await findWebhook(tx, ctx, webhookId);
    if (!webhook) throw notFound(WEBHOOK_NOT_FOUND);
    if (!(await findDelivery(tx, webhookId, deliveryId, true))) throw notFound(DELIVERY_NOT_FOUND);
    if (webhook.status === 'DISABLED') {
      throw conflict('O webhook está desativado: crie outro para voltar a receber eventos');
    }
    const row = await markDeliveryPending(tx, deliveryId);
    const job: WebhookDeliveryJob = { delivery_id: deliveryId };
    recordJob(tx, QUEUES.webhookDeliveries, 'webhook.delivery', { ...job }, newId());
    return keepAnswer(new Reply(202, deliveryView(row, await attemptsOf(tx, [deliveryId]))));
  });
}
