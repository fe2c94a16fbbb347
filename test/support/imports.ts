import type { ApiClient } from './api-client.ts';
import { waitFor } from './wait-for.ts';

/** Posts an open-banking import and polls its job until it leaves waiting/active (30 s at most). */
export async function importAndWait(api: ApiClient, body: unknown) {
  const response = await api.post('/v1/open-banking/imports', body);
  expect([200, 202]).toContain(response.status);
  const settled = (job: { state: string }) => job.state !== 'waiting' && job.state !== 'active';
  const accepted = response.body.job;
  const job = settled(accepted)
    ? accepted
    : await waitFor(async () => {
        const current = (await api.get(`/v1/jobs/${accepted.id}`)).body;
        return settled(current) && current;
      }, 30_000);
  return { response, job };
}

/** The finished job of an import that must succeed. */
export async function importCompleted(api: ApiClient, body: unknown) {
  const { job } = await importAndWait(api, body);
  expect(job.state).toBe('completed');
  return job;
}
