import { isValidTimeZone } from '@finance/shared/clock';
import type { ConnectionEnded, ContextTimeZoneChanged, DomainEvent } from '@finance/shared/queue/catalogue';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type EventBatchRun, eventBatchProcessor } from '@finance/shared/queue/event-batches';
import { handleOnce, recordHandled } from '@finance/shared/queue/inbox';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { saveContextTimeZone } from '../../data-access/context-time-zones.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { forecastInputsChanged } from '../../domain/cash-flow/inputs-changed.ts';
import { connectionNotification } from '../../domain/notifications/connection-notifications.ts';

/** The inbox's consumer name of insights' own effects of ledger events (the spending limits' too). */
export const CONSUMER = 'insights';
/** Events of one batch handled at once. */
const LEDGER_EVENTS_CONCURRENCY = 16;

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

/**
 * What insights makes of ledger events, once each (inbox): `context.time_zone_changed` keeps the context's zone for
 * the daily jobs; `account.created` and `context.preferences_changed` only make the context's cash-flow forecast due
 * (as the zone does) and are recorded with the batch's others in one statement.
 */
function ledgerEventsRun(runtime: InsightsRuntime): () => EventBatchRun {
  const { orm } = runtime;
  return () => {
    const quiet: DomainEvent[] = [];
    // what these change the cash-flow forecast sees: the context's watch is made due at the batch's end
    const forecasts: DomainEvent['context'][] = [];
    return {
      async handle(event) {
        switch (event?.type) {
          case 'account.created':
          case 'context.preferences_changed':
            if (!event.context?.user_id) throw new UnrecoverableError(`malformed ${event.type} event`);
            quiet.push(event);
            forecasts.push(event.context);
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
            forecasts.push(context);
            return;
          }
          default:
            throw new UnrecoverableError(`no handler for event ${String(event?.type)}`);
        }
      },
      finish: async () => {
        await forecastInputsChanged(orm.em.fork(), forecasts);
        await recordHandled(orm.em.fork(), quiet, CONSUMER);
      },
    };
  };
}

/** Consumes the ledger's account, time-zone and preference events. */
export function startLedgerEventsWorker(runtime: InsightsRuntime) {
  return runtime.startWorker(
    QUEUES.insightsLedgerEvents,
    eventBatchProcessor(LEDGER_EVENTS_CONCURRENCY, ledgerEventsRun(runtime)),
    // batches arrive one per relay tick; a second in flight keeps the lag short while one waits on PostgreSQL
    2,
  );
}
