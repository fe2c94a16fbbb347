import { registry } from '@finance/shared/telemetry/metrics';
import pLimit, { type LimitFunction } from 'p-limit';
import { Gauge } from 'prom-client';

/** Every gate of this process (the component tests run several ledgers in one), summed by the gauge. */
const gates = new Set<LimitFunction>();

const METRIC = 'ledger_bill_reads';

function registerGauge() {
  if (registry.getSingleMetric(METRIC)) return;
  new Gauge({
    name: METRIC,
    help: "Bills' transaction lists the ledger is reading and writing out (active) or keeps waiting for a slot (waiting)",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      let active = 0;
      let waiting = 0;
      for (const gate of gates) {
        active += gate.activeCount;
        waiting += gate.pendingCount;
      }
      this.set({ state: 'active' }, active);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}

/**
 * At most `inFlight` bills' rows read and written out at once (`BILL_READS_IN_FLIGHT`): each holds a database
 * connection and the piece being built, so a burst of bills waits here in order, leaves the pool's other
 * connections to the other routes, and does not grow the process's memory with all of them.
 */
export function billReadsGate(inFlight: number): LimitFunction {
  registerGauge();
  const gate = pLimit(inFlight);
  gates.add(gate);
  return gate;
}
