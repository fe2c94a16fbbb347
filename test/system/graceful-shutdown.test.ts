import { CONTEXT_HEADER, signContext } from '@finance/shared/context/signed-context';
import type { RunningService } from '@finance/shared/service/start-service';
import { TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

describe('graceful shutdown: in-flight requests finish, workers and the outbox relay stop', () => {
  let stack: TestStack;
  let ledger: RunningService;
  let userId: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    ledger = stack.service('ledger');
    userId = (await stack.tenant()).userId;
  });
  afterAll(() => stack?.stop());

  it('when the outbox relay is stopped mid-run, then stop waits for the batch and no tick runs afterwards', async () => {
    const relay = ledger.runtime.outbox;
    expect(relay).not.toBeNull();
    relay?.kick();
    await relay?.stop();
    const [{ id }] = await stack.sql<{ id: string }>(
      `insert into ledger.outbox_events (id, type, payload) values (gen_random_uuid(), 'account.created', '{}') returning id`,
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    const [row] = await stack.sql('select published_at from ledger.outbox_events where id = $1', [id]);
    expect(row.published_at).toBeNull();
    await stack.sql('delete from ledger.outbox_events where id = $1', [id]);
  });

  it('when stop() is called while many requests are in flight, then each accepted request completes and stop resolves in time', async () => {
    const context = signContext(
      { userId, profileId: null, business: false, keyId: null },
      ledger.runtime.config.INTERNAL_SECRET,
    );
    let accepted = 0;
    ledger.server.on('request', () => {
      accepted += 1;
    });
    const calls = Array.from({ length: 40 }, () =>
      fetch(`${ledger.url}/v1/accounts`, { headers: { [CONTEXT_HEADER]: context } }).then(
        async (response) => ({ status: response.status, body: (await response.json()) as { data?: unknown } }),
        () => ({ status: 0, body: {} as { data?: unknown } }),
      ),
    );
    await waitFor(async () => accepted >= 10, 5_000, 1);
    const started = Date.now();
    await ledger.stop();
    const elapsed = Date.now() - started;
    const results = await Promise.all(calls);

    expect(elapsed).toBeLessThan(ledger.runtime.config.SHUTDOWN_TIMEOUT_MS);
    // every request the server took answered in full; only ones that arrived after close were refused
    const answered = results.filter((result) => result.status !== 0);
    expect(answered.length).toBeGreaterThanOrEqual(Math.min(accepted, 40));
    for (const result of answered) {
      expect(result.status).toBe(200);
      expect(Array.isArray(result.body.data ?? result.body)).toBe(true);
    }
    expect(ledger.server.listening).toBe(false);
    await expect(fetch(`${ledger.url}/healthz`)).rejects.toThrow();
  });
});
