import { readFileSync } from 'node:fs';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { parse } from 'yaml';

interface WorkerValues {
  groups?: Record<string, { queues?: string[]; env?: Record<string, string> }> | null;
  keda: { queues: string[] };
}

const values = parse(readFileSync('deploy/helm/finance-api/values.yaml', 'utf8')) as {
  services: Record<string, { worker?: WorkerValues }>;
};

// a queue is consumed by the service its name starts with (`insights.investment-snapshots` is fed by the ledger)
const queuesOf = (service: string) =>
  Object.values(QUEUES)
    .filter((name) => name.startsWith(`${service}.`))
    .sort();

describe('Helm chart worker queues', () => {
  it.each(['ledger', 'billing', 'insights'])(
    'when the catalogue has a %s queue, then the default worker groups consume it and the KEDA triggers count it',
    (service) => {
      const worker = values.services[service].worker as WorkerValues;
      const groups = Object.values(worker.groups ?? {});
      if (groups.length > 0) {
        const grouped = groups.flatMap((group) => group.queues ?? []);
        expect(grouped.filter((name) => name !== 'outbox').sort()).toEqual(queuesOf(service));
        expect(grouped).toContain('outbox');
      }
      expect([...worker.keda.queues].sort()).toEqual(queuesOf(service));
    },
  );

  it('when the chart runs the statement-file worker, then its pods alone hold their heap within 15 % of their live data', () => {
    const groups = Object.values(values.services).flatMap((service) => Object.values(service.worker?.groups ?? {}));
    const tuned = groups.filter((group) => group.env?.HEAP_GROWING_PERCENT !== undefined);
    expect(tuned).toEqual([
      expect.objectContaining({ queues: [QUEUES.statementFiles], env: { HEAP_GROWING_PERCENT: '15' } }),
    ]);
  });
});
