import type { BillPaymentRecorded, DomainEvent } from '@finance/shared/queue/catalogue';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findBill, reopenForRollover } from '../../data-access/bill-repository.ts';
import { jobContext } from '../context-today.ts';
import { billEventData } from './announce-bills.ts';

/**
 * What billing makes of a payment the ledger wrote (`bill.payment_recorded`, in the consumer's inbox transaction):
 * `bill.paid` when the bill's sums as the payment committed leave nothing owed (a partial payment shows as
 * `transaction.created`), and the bill reopened for the rollover, which carries an overpayment's credit on (the
 * pay request did it already, unless its process died after the ledger's commit). A bill of a card deleted since
 * announces nothing.
 */
export async function announcePayment(tx: EntityManager, event: DomainEvent<BillPaymentRecorded>): Promise<void> {
  const { context, data } = event;
  const bill = await findBill(
    tx,
    jobContext({ userId: context.user_id, profileId: context.profile_id }),
    data.bill_id,
    'c',
  );
  if (!bill) return;
  await reopenForRollover(tx, [bill.id]);
  const announced = billEventData(bill, data.totals ?? undefined);
  if (announced.balance > 0) return;
  recordEvent(tx, 'bill.paid', context, { ...announced, payment: data.payment });
}
