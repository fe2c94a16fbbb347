import { inFlightGate } from '@finance/shared/http/in-flight-gate';

/**
 * At most `inFlight` bills' rows read and written out at once (`BILL_READS_IN_FLIGHT`): each holds a database
 * connection and the piece being built, so a burst of bills waits here in order, leaves the pool's other
 * connections to the other routes, and does not grow the process's memory with all of them.
 */
export const billReadsGate = (inFlight: number) =>
  inFlightGate(
    {
      name: 'ledger_bill_reads',
      help: "Bills' transaction lists the ledger is reading and writing out (active) or keeps waiting for a slot (waiting)",
    },
    inFlight,
  );
