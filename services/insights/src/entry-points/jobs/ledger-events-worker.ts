import { isValidTimeZone } from '@finance/shared/clock';
import type { ContextTimeZoneChanged, DomainEvent, TransactionChanged } from '@finance/shared/queue/catalogue';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { handleOnce } from '@finance/shared/queue/inbox';
import { eventProcessor } from '@finance/shared/queue/queues';
import { UnrecoverableError } from 'bullmq';
import type { InsightsRuntime } from '../../config.ts';
import { saveContextTimeZone } from '../../data-access/context-time-zones.ts';
import { insertNotifications } from '../../data-access/notification-writes.ts';
import { spendingAlertsFor } from '../../domain/limits/spending-alerts.ts';
import { ledgerFor } from '../../ledger-client.ts';

const CONSUMER = 'insights';
export const LEDGER_EVENTS_CONCURRENCY = 16;

/**
 * Consumes ledger events once each (inbox); `transaction.changed` checks the spending limits it touches;
 * `context.time_zone_changed` keeps the context's zone for the daily jobs.
 */
export function startLedgerEventsWorker(runtime: InsightsRuntime) {
  const { orm, logger } = runtime;
  const ledger = ledgerFor(runtime);
  return runtime.startWorker(
    QUEUES.insightsLedgerEvents,
    eventProcessor({
      'account.created': async (event) => {
        const applied = await handleOnce(orm.em.fork(), event, CONSUMER);
        logger.debug({ eventId: event.event_id, applied }, 'account.created consumed');
      },
      'context.time_zone_changed': async (event) => {
        const changed = event as DomainEvent<ContextTimeZoneChanged>;
        const { time_zone: zone, changed_at: at } = changed.data ?? ({} as ContextTimeZoneChanged);
        if (
          !changed.context?.user_id ||
          !isValidTimeZone(zone) ||
          typeof at !== 'string' ||
          Number.isNaN(Date.parse(at))
        ) {
          throw new UnrecoverableError('malformed context.time_zone_changed event');
        }
        await handleOnce(orm.em.fork(), event, CONSUMER, (tx) => saveContextTimeZone(tx, changed.context, zone, at));
      },
      'transaction.changed': async (event) => {
        const changed = event as DomainEvent<TransactionChanged>;
        if (!changed.context?.user_id || !Array.isArray(changed.data?.transactions)) {
          throw new UnrecoverableError('malformed transaction.changed event');
        }
        const em = orm.em.fork();
        // spending is read before the inbox transaction so no HTTP call holds a database transaction open
        const alerts = await spendingAlertsFor(em, ledger, changed);
        await handleOnce(
          em,
          event,
          CONSUMER,
          alerts.length
            ? async (tx) => {
                await insertNotifications(tx, alerts);
              }
            : undefined,
        );
      },
    }),
    // each event waits mostly on PostgreSQL (a limit lookup, the inbox insert): more in flight keeps the lag
    // from commit to a limit's `spent` under a second while the ledger takes creates at full speed
    LEDGER_EVENTS_CONCURRENCY,
  );
}
