import { isUuid } from '@finance/shared/db/pagination';
import { DEFAULT_JOB_OPTIONS, QUEUES, type WebhookDeliveryJob } from '@finance/shared/queue/catalogue';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { sendWebhook } from '../../data-access/webhook-sender.ts';
import { deliverWebhook } from '../../domain/webhooks/deliver-webhook.ts';

/** One attempt per job; a failed attempt schedules the next one as a delayed job `<delivery_id>-<n>`. */
export function startWebhookDeliveriesWorker(runtime: InsightsRuntime) {
  const config = runtime.config;
  const settings = {
    send: (request: Parameters<typeof sendWebhook>[0]) =>
      sendWebhook(request, {
        allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      }),
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    retryWindowMs: config.WEBHOOK_RETRY_WINDOW_MS,
    disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES,
  };
  return runtime.startWorker<WebhookDeliveryJob>(
    QUEUES.webhookDeliveries,
    async (job) => {
      const deliveryId = job.data?.delivery_id;
      if (typeof deliveryId !== 'string' || !isUuid(deliveryId)) {
        throw new UnrecoverableError('malformed webhook delivery job');
      }
      // the first attempt's job id is the delivery id and the next ones `<delivery>-<n>`; any other is a manual retry
      const manual = job.id !== deliveryId && !String(job.id).startsWith(`${deliveryId}-`);
      const result = await deliverWebhook(runtime.orm.em.fork(), deliveryId, settings, manual);
      if (result.retryInMs !== null && result.attempt !== null) {
        await runtime.queues
          .get(QUEUES.webhookDeliveries)
          .add(
            'webhook.delivery',
            { delivery_id: deliveryId },
            { ...DEFAULT_JOB_OPTIONS, jobId: `${deliveryId}-${result.attempt + 1}`, delay: result.retryInMs },
          );
      }
      return result;
    },
    8,
  );
}
