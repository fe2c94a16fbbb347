import { ledgerForBillingRoutes } from '@finance/shared/contracts/internal/ledger-for-billing';
import { lookupIn } from '@finance/shared/contracts/route';
import { JsonStream, mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { billTotals, billTransactions } from '../../domain/card-statements/bill-contents.ts';
import {
  addPreviousBalances,
  cardTransactionDates,
  createBillPayment,
  deleteCardTransactions,
  rebillCard,
} from '../../domain/card-statements/bill-moves.ts';
import { billReadsGate } from './bill-reads-gate.ts';

const route = lookupIn(ledgerForBillingRoutes);
const ROWS_START = Buffer.from('[');
const ROWS_END = Buffer.from(']');

/** Card and bill reads and writes for billing: behind the signed context, absent from the public table. */
export function mountInternalBillingRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm, config } = runtime;
  const billReads = billReadsGate(config.BILL_READS_IN_FLIGHT);
  mountRoute(
    router,
    route('searchCardTransactions'),
    ({ body }, ctx) =>
      // the slot is held until the last row has left: what a bill holds is bounded while it is written
      new JsonStream((write) =>
        billReads(async () => {
          // the array's opening leaves with the first piece of rows: a failure before the rows is still an
          // answered error
          let head: Buffer | undefined = ROWS_START;
          const writeRows = (piece: Buffer) => {
            if (head) write(head);
            head = undefined;
            write(piece);
          };
          await billTransactions(
            orm.em.fork(),
            ctx,
            body.credit_card_id,
            body.bill_ids,
            body.closing_date,
            body.credit_card,
            writeRows,
          );
          writeRows(ROWS_END);
        }),
      ),
  );
  mountRoute(router, route('cardBillTotals'), async ({ body }, ctx) => ({
    totals: await billTotals(orm.em.fork(), ctx, body.bill_ids),
  }));
  mountRoute(router, route('cardTransactionDates'), async ({ body }, ctx) => ({
    transactions: await cardTransactionDates(orm.em.fork(), ctx, body.credit_card_id, body.from),
  }));
  mountRoute(router, route('rebillCard'), ({ body }, ctx) => rebillCard(orm.em.fork(), ctx, body));
  mountRoute(router, route('addPreviousBalances'), ({ body }, ctx) =>
    addPreviousBalances(orm.em.fork(), ctx, body.entries),
  );
  mountRoute(router, route('createBillPayment'), ({ body }, ctx) => createBillPayment(orm.em.fork(), ctx, body));
  mountRoute(router, route('deleteCardTransactions'), ({ body }, ctx) =>
    deleteCardTransactions(orm.em.fork(), ctx, body.credit_card_id, body.bill_ids, body.calendar_version),
  );
}
