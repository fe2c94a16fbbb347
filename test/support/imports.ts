import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from './api-client.ts';

/** Posts an open-banking import and polls its job until it leaves waiting/active (30 s at most). */
export async function importAndWait(api: ApiClient, body: unknown) {
  const response = await api.post('/v1/open-banking/imports', body);
  expect([200, 202]).toContain(response.status);
  let job = response.body.job;
  for (let i = 0; i < 300 && (job.state === 'waiting' || job.state === 'active'); i++) {
    await sleep(100);
    job = (await api.get(`/v1/jobs/${job.id}`)).body;
  }
  return { response, job };
}

/** The finished job of an import that must succeed. */
export async function importCompleted(api: ApiClient, body: unknown) {
  const { job } = await importAndWait(api, body);
  expect(job.state).toBe('completed');
  return job;
}
