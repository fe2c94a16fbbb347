import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVICE_MALLOC_TUNABLES, SERVICE_NODE_FLAGS } from '../../scripts/service-tuning.ts';

/**
 * The most heap (MB) a fresh Node process with the services' flags reaches while ≈40 MB stay live and megabytes
 * die behind them.
 */
const peakHeapMb = (percent: number) => {
  const script = `
    import { limitHeapGrowth } from './shared/src/service/heap-growth.ts';
    limitHeapGrowth(${percent});
    const live = [];
    let peak = 0;
    for (let i = 0; i < 300; i++) {
      live.push(Array.from({ length: 2000 }, (_, k) => 'x'.repeat(2000) + i + k));
      if (live.length > 10) live.shift();
      peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(Math.round(peak / 1e6));`;
  return Number(
    execFileSync(process.execPath, [...SERVICE_NODE_FLAGS.split(' '), '--input-type=module', '-e', script], {
      encoding: 'utf8',
    }),
  );
};

describe('service processes: memory tuning', () => {
  it('when HEAP_GROWING_PERCENT is 50, then the heap stays within half again the live data, as it does not with V8 left alone', () => {
    const capped = peakHeapMb(50);
    expect(capped).toBeLessThan(85);
    expect(peakHeapMb(0)).toBeGreaterThan(capped);
  });

  it('when the image runs a service, then it gets the same malloc thresholds as npm start gives it', () => {
    expect(readFileSync('Dockerfile', 'utf8')).toContain(`GLIBC_TUNABLES=${SERVICE_MALLOC_TUNABLES}\n`);
  });
});
