import { inFlightGate } from '@finance/shared/http/in-flight-gate';

/**
 * At most `inFlight` cash-flow forecasts worked out at once (`CASH_FLOW_IN_FLIGHT`): each holds its context's
 * unpaid entries, occurrences and bills ahead in this process, and asks the ledger and billing for them, so a burst
 * of forecasts waits here in order instead of holding all of them in three processes' memory at once.
 */
export const cashFlowGate = (inFlight: number) =>
  inFlightGate(
    {
      name: 'insights_cash_flow_forecasts',
      help: 'Cash-flow forecasts insights is working out (active) or keeps waiting for a slot (waiting)',
    },
    inFlight,
  );
