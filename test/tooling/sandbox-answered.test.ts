import { randomUUID } from 'node:crypto';
import { type SandboxProcess, sandboxFor } from '../support/sandbox-bank.ts';

const REDIRECT = 'http://127.0.0.1:9/v1/open-banking/callback';

/** Banco Sandbox times its own answers (what a receiver's sync waited on it), not the routes that drive it. */
describe('Banco Sandbox’s answer time', () => {
  let sandbox: SandboxProcess;

  beforeAll(async () => {
    sandbox = (await sandboxFor(REDIRECT)).sandbox;
  });
  afterAll(() => sandbox?.stop());

  const call = (path: string) =>
    fetch(`${sandbox.url}${path}`, { headers: { 'x-fapi-interaction-id': randomUUID() } }).then((res) => res.status);

  it('when calls are answered, then their wall time is summed and counted; a reset starts again from zero', async () => {
    await sandbox.resetAnswered();
    await sandbox.fault({ status: 503, times: 2, path: '/open-banking/accounts', delay_ms: 150 });
    expect(await call('/open-banking/accounts/v2/accounts')).toBe(503);
    expect(await call('/open-banking/accounts/v2/accounts')).toBe(503);
    expect(await call('/open-banking/accounts/v2/accounts')).toBe(401);
    const answered = await sandbox.answered();
    expect(answered).toMatchObject({ answers: 3 });
    // two answers held 150 ms each, one at a time: the sum and the busy time agree
    expect(answered.ms).toBeGreaterThanOrEqual(300);
    expect(answered.ms).toBeLessThan(2000);
    expect(answered.busy_ms).toBeGreaterThanOrEqual(300);
    expect(answered.busy_ms).toBeLessThanOrEqual(answered.ms + 1);

    await sandbox.resetAnswered();
    // the admin routes (the faults', the clock's own) are not the institution's answers
    await sandbox.faultsLeft();
    expect(await sandbox.answered()).toEqual({ ms: 0, answers: 0, busy_ms: 0 });
  });

  it('when answers overlap, then each counts whole in the sum and once in the busy time', async () => {
    await sandbox.resetAnswered();
    await sandbox.fault({ status: 503, times: 2, path: '/open-banking/accounts', delay_ms: 1000 });
    const started = performance.now();
    await Promise.all([call('/open-banking/accounts/v2/accounts'), call('/open-banking/accounts/v2/accounts')]);
    const wall = performance.now() - started;
    const answered = await sandbox.answered();
    expect(answered.answers).toBe(2);
    expect(answered.ms).toBeGreaterThanOrEqual(2000);
    expect(answered.busy_ms).toBeGreaterThanOrEqual(1000);
    // the two held answers overlap (however late the second one started on a busy machine): the busy time is at
    // most the client's wall time, which is less than their sum
    expect(wall).toBeLessThan(answered.ms);
    expect(answered.busy_ms).toBeLessThanOrEqual(wall + 1);
  });
});
