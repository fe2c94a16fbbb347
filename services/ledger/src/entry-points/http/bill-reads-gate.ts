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
    help: "Bills' transaction lists the ledger is assembling (active) or keeps waiting for a slot (waiting)",
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
 * At most `inFlight` bills' rows assembled at once (`BILL_READS_IN_FLIGHT`): each holds its answer's bytes (≈3 MB
 * for 1,000 rows) until written, so a burst of bills waits here in order instead of growing the process's memory
 * with all of them, and leaves the pool's other connections to the other routes.
 */
export function billReadsGate(inFlight: number): LimitFunction {
  registerGauge();
  const gate = pLimit(inFlight);
  gates.add(gate);
  return gate;
}
