import { isValidTimeZone } from '@finance/shared/clock';
import type {
  ConnectionEnded,
  ContextTimeZoneChanged,
  DomainEvent,
  TransactionChanged,
} from '@finance/shared/queue/catalogue';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type EventBatchRun, eventBatchProcessor } from '@finance/shared/queue/event-batches';
import { handleOnce, recordHandled } from '@finance/shared/queue/inbox';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { saveContextTimeZone } from '../../data-access/context-time-zones.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { spendingAlertsFor } from '../../domain/limits/spending-alerts.ts';
import { connectionNotification } from '../../domain/notifications/connection-notifications.ts';
import { ledgerFor } from '../../ledger-client.ts';

const CONSUMER = 'insights';
/** Events of one batch handled at once: those that touch a limit wait on PostgreSQL and the ledger. */
export const LEDGER_EVENTS_CONCURRENCY = 16;

function timeZoneChange(event: DomainEvent): DomainEvent<ContextTimeZoneChanged> {
  const changed = event as DomainEvent<ContextTimeZoneChanged>;
  const { time_zone: zone, changed_at: at } = changed.data ?? ({} as ContextTimeZoneChanged);
  if (!changed.context?.user_id || !isValidTimeZone(zone) || typeof at !== 'string' || Number.isNaN(Date.parse(at))) {
    throw new UnrecoverableError('malformed context.time_zone_changed event');
  }
  return changed;
}

function connectionEnded(event: DomainEvent): DomainEvent<ConnectionEnded> {
  const ended = event as DomainEvent<ConnectionEnded>;
  if (
    !ended.context?.user_id ||
    typeof ended.data?.connection_id !== 'string' ||
    typeof ended.data.institution !== 'string'
  ) {
    throw new UnrecoverableError(`malformed ${String(event.type)} event`);
  }
  return ended;
}

function transactionChange(event: DomainEvent): DomainEvent<TransactionChanged> {
  const changed = event as DomainEvent<TransactionChanged>;
  if (!changed.context?.user_id || !Array.isArray(changed.data?.transactions)) {
    throw new UnrecoverableError('malformed transaction.changed event');
  }
  return changed;
}

/**
 * What insights makes of ledger events, once each (inbox): `transaction.changed` checks the spending limits it
 * touches, `context.time_zone_changed` keeps the context's zone for the daily jobs. The events with nothing to
 * apply (most: no limit touched) are recorded together, one statement per batch.
 */
export function ledgerEventsRun(runtime: InsightsRuntime): () => EventBatchRun {
  const { orm } = runtime;
  const ledger = ledgerFor(runtime);
  return () => {
    const quiet: DomainEvent[] = [];
    return {
      async handle(event) {
        switch (event?.type) {
          case 'account.created':
            quiet.push(event);
            return;
          case 'connection.revoked':
          case 'connection.expired': {
            const notification = connectionNotification(connectionEnded(event));
            await handleOnce(orm.em.fork(), event, CONSUMER, async (tx) => {
              await insertNotifications(tx, [notification]);
            });
            return;
          }
          case 'context.time_zone_changed': {
            const { context, data } = timeZoneChange(event);
            await handleOnce(orm.em.fork(), event, CONSUMER, (tx) =>
              saveContextTimeZone(tx, context, data.time_zone, data.changed_at),
            );
            return;
          }
          case 'transaction.changed': {
            const em = orm.em.fork();
            // spending is read before the inbox transaction so no HTTP call holds a database transaction open
            const alerts = await spendingAlertsFor(em, ledger, transactionChange(event));
            if (alerts.length === 0) quiet.push(event);
            else
              await handleOnce(em, event, CONSUMER, async (tx) => {
                await insertNotifications(tx, alerts);
              });
            return;
          }
          default:
            throw new UnrecoverableError(`no handler for event ${String(event?.type)}`);
        }
      },
      finish: () => recordHandled(orm.em.fork(), quiet, CONSUMER),
    };
  };
}

/** Consumes the ledger's account and time-zone events (and `transaction.changed` relayed by an earlier release). */
export function startLedgerEventsWorker(runtime: InsightsRuntime) {
  return runtime.startWorker(
    QUEUES.insightsLedgerEvents,
    eventBatchProcessor(LEDGER_EVENTS_CONCURRENCY, ledgerEventsRun(runtime)),
    // batches arrive one per relay tick; a second in flight keeps the lag short while one waits on the ledger
    2,
  );
}
