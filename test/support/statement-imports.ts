import type { ApiClient, ApiResponse } from './api-client.ts';
import { waitFor } from './wait-for.ts';

const settled = (job: { state: string }) => job.state === 'completed' || job.state === 'failed';

/** Posts a statement file (bytes as the bank wrote them) and waits for its job; `job` is null when refused. */
export async function importStatement(
  api: ApiClient,
  path: string,
  file: Uint8Array | string,
  contentType = 'application/x-ofx',
): Promise<{ response: ApiResponse; job: any }> {
  const response = await api.request('POST', path, { rawBody: file, headers: { 'content-type': contentType } });
  if (response.status >= 400) return { response, job: null };
  const accepted = response.body.job;
  const job = settled(accepted)
    ? accepted
    : await waitFor(async () => {
        const current = (await api.get(`/v1/jobs/${accepted.id}`)).body;
        return settled(current) && current;
      }, 60_000);
  return { response, job };
}

/** The result of a statement import that must complete. */
export async function statementImported(api: ApiClient, path: string, file: Uint8Array | string, contentType?: string) {
  const { response, job } = await importStatement(api, path, file, contentType);
  if (job?.state !== 'completed') {
    throw new Error(`statement import did not complete: ${response.status} ${JSON.stringify(job ?? response.body)}`);
  }
  return job.result;
}
