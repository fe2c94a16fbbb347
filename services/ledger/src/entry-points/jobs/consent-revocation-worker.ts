import { contextOfRef } from '@finance/shared/db/context-scope';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { eventBatchProcessor } from '@finance/shared/queue/event-batches';
import { UnrecoverableError } from 'bullmq';
import type { LedgerRuntime } from '../../config.ts';
import { revokeConsent } from '../../domain/open-banking/revoke-consent.ts';
import { openFinanceFor } from '../../open-finance.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Revokes at the institution the consent of connections whose last account was deleted, or that the client
 * deleted (event relayed from the outbox); a failed call throws and the job is retried (QUEUE_JOB_OPTIONS).
 */
export function startConsentRevocationWorker(runtime: LedgerRuntime) {
  return runtime.startWorker(
    QUEUES.consentRevocation,
    eventBatchProcessor(1, () => ({
      async handle(event) {
        if (event?.type !== 'connection.consent_revoke_requested') {
          throw new UnrecoverableError(`no handler for event ${String(event?.type)}`);
        }
        const data = event.data as { connection_id?: unknown; reason?: unknown };
        const connectionId = data?.connection_id;
        const reason = data?.reason === 'deleted' ? 'deleted' : 'last-account';
        const context = event.context;
        if (typeof connectionId !== 'string' || !UUID.test(connectionId) || !context?.user_id) {
          throw new UnrecoverableError('Pedido de revogação inválido');
        }
        const ctx = contextOfRef(context);
        const outcome = await revokeConsent(runtime.orm.em.fork(), ctx, connectionId, openFinanceFor(runtime), reason);
        if (outcome === 'unknown') throw new UnrecoverableError('Conexão não encontrada para revogação');
      },
    })),
    1,
  );
}
