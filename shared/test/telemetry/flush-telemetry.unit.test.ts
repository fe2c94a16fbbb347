import { flushTelemetry } from '@finance/shared/telemetry/tracing';

describe('flushTelemetry: the trace flush at the end of a stop path', () => {
  const warnings: unknown[] = [];
  const logger = { warn: (...args: unknown[]) => void warnings.push(args) };
  beforeEach(() => {
    warnings.length = 0;
  });

  it('when the export never finishes, then the flush gives up after the timeout and says so', async () => {
    const started = Date.now();
    await flushTelemetry({ shutdown: () => new Promise<void>(() => undefined) }, 200, logger);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
    expect(warnings).toHaveLength(1);
  });

  it('when the export finishes, then the flush waits for it and returns without a warning', async () => {
    let flushed = false;
    const shutdown = () =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          flushed = true;
          resolve();
        }, 50),
      );
    await flushTelemetry({ shutdown }, 5_000, logger);
    expect(flushed).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('when the export fails, then the flush resolves and logs the failure instead of failing the stop', async () => {
    await expect(
      flushTelemetry({ shutdown: () => Promise.reject(new Error('collector down')) }, 5_000, logger),
    ).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('when tracing is off, then the flush does nothing', async () => {
    await expect(flushTelemetry(null, 10, logger)).resolves.toBeUndefined();
    expect(warnings).toEqual([]);
  });
});
