import pLimit, { type LimitFunction } from 'p-limit';
import { Gauge } from 'prom-client';
import { registry } from '../telemetry/metrics.ts';

/** The gates behind each gauge: the component tests run several services in one process, and the gauge sums them. */
const gatesByMetric = new Map<string, Set<LimitFunction>>();

function gatesOf(name: string, help: string): Set<LimitFunction> {
  const known = gatesByMetric.get(name);
  if (known) return known;
  const gates = new Set<LimitFunction>();
  gatesByMetric.set(name, gates);
  new Gauge({
    name,
    help,
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
  return gates;
}

/**
 * At most `inFlight` calls of the returned function run at once, the others wait in order; the gauge `metric`
 * shows how many run (`state="active"`) and wait (`state="waiting"`).
 */
export function inFlightGate(metric: { name: string; help: string }, inFlight: number): LimitFunction {
  const gate = pLimit(inFlight);
  gatesOf(metric.name, metric.help).add(gate);
  return gate;
}
