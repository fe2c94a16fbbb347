import type { ApiClient } from '../support/api-client.ts';
import { type Tenant, TestStack } from '../support/stack.ts';
import { ofxFile } from '../support/statement-files.ts';
import { waitFor } from '../support/wait-for.ts';

/** Posts a statement file and waits for its job to finish. */
async function importStatement(api: ApiClient, path: string, file: Uint8Array | string, contentType: string) {
  const response = await api.request('POST', path, { rawBody: file, headers: { 'content-type': contentType } });
  if (response.status >= 400) return { response, job: null };
  const settled = (job: { state: string }) => job.state === 'completed' || job.state === 'failed';
  const job = settled(response.body.job)
    ? response.body.job
    : await waitFor(async () => {
        const current = (await api.get(`/v1/jobs/${response.body.job.id}`)).body;
        return settled(current) && current;
      }, 30_000);
  return { response, job };
}

describe('statement files (OFX and CSV) through the import pipeline', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  it('smoke', async () => {
    const account = (await tenant.api.post('/v1/accounts', { name: 'Itaú', logo: '341', balance: 0 })).body;
    const file = ofxFile(
      [
        { fitid: '1', date: '2026-01-05', amount: '-1.234,56', memo: 'Padaria São João', time: '120000[-3:BRT]' },
        { fitid: '2', date: '2026-01-06', amount: '0.10', memo: 'Pix recebido' },
      ],
      { ledgerBalance: { amount: '-1234,46', date: '2026-01-31' } },
    );
    const { response, job } = await importStatement(
      tenant.api,
      `/v1/accounts/${account.id}/statements`,
      file,
      'application/x-ofx',
    );
    console.log(response.status, JSON.stringify(response.body), JSON.stringify(job));
    const again = await importStatement(tenant.api, `/v1/accounts/${account.id}/statements`, file, 'application/x-ofx');
    console.log(JSON.stringify(again.job));
  });
});
