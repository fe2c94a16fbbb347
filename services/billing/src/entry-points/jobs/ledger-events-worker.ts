import type { BillPaymentRecorded, DomainEvent } from '@finance/shared/queue/catalogue';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type EventBatchRun, eventBatchProcessor } from '@finance/shared/queue/event-batches';
import { handleOnce } from '@finance/shared/queue/inbox';
import { UnrecoverableError } from 'bullmq';
import type { BillingRuntime } from '../../config.ts';
import { announcePayment } from '../../domain/bills/announce-payment.ts';

const CONSUMER = 'billing';
/** Events of one batch handled at once: each is one short inbox transaction. */
const LEDGER_EVENTS_CONCURRENCY = 4;

function paymentRecorded(event: DomainEvent): DomainEvent<BillPaymentRecorded> {
  const recorded = event as DomainEvent<BillPaymentRecorded>;
  const payment = recorded.data?.payment;
  if (
    !recorded.context?.user_id ||
    typeof recorded.data?.bill_id !== 'string' ||
    typeof payment?.transaction_id !== 'string' ||
    typeof payment.amount !== 'number' ||
    typeof payment.date !== 'string'
  ) {
    throw new UnrecoverableError('malformed bill.payment_recorded event');
  }
  return recorded;
}

/** What billing makes of ledger events, once each (inbox): a bill's payment may announce the bill paid. */
export function ledgerEventsRun(runtime: BillingRuntime): () => EventBatchRun {
  return () => ({
    async handle(event) {
      if (event?.type !== 'bill.payment_recorded') {
        throw new UnrecoverableError(`no handler for event ${String(event?.type)}`);
      }
      const recorded = paymentRecorded(event);
      await handleOnce(runtime.orm.em.fork(), recorded, CONSUMER, (tx) => announcePayment(tx, recorded));
    },
  });
}

/** Consumes the ledger's events for billing (`billing.ledger-events`). */
export function startLedgerEventsWorker(runtime: BillingRuntime) {
  return runtime.startWorker(
    QUEUES.billingLedgerEvents,
    eventBatchProcessor(LEDGER_EVENTS_CONCURRENCY, ledgerEventsRun(runtime)),
    1,
  );
}
