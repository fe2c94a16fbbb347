import { execFileSync, spawnSync } from 'node:child_process';

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
    execFileSync('sh', ['scripts/runtime.sh', process.execPath, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    }),
  );
};

/** What a process started through scripts/runtime.sh sees: its environment's settings and its mapped allocator. */
function underRuntime(env: Record<string, string | undefined>) {
  const { NODE_OPTIONS: _, LD_PRELOAD: __, MALLOC_CONF: ___, NODE_COMPILE_CACHE: ____, ...base } = process.env;
  const run = spawnSync(
    'sh',
    [
      'scripts/runtime.sh',
      process.execPath,
      '-e',
      `const e = process.env;
       const maps = require('fs').readFileSync('/proc/self/maps', 'utf8');
       console.log(JSON.stringify({ NODE_OPTIONS: e.NODE_OPTIONS, LD_PRELOAD: e.LD_PRELOAD, MALLOC_CONF: e.MALLOC_CONF,
         NODE_COMPILE_CACHE: e.NODE_COMPILE_CACHE, jemalloc: maps.includes('libjemalloc') }));`,
    ],
    { encoding: 'utf8', env: { ...base, ...env } as NodeJS.ProcessEnv },
  );
  return { stderr: run.stderr, ...JSON.parse(run.stdout) };
}

const HOUSE_MALLOC_CONF = 'background_thread:true,dirty_decay_ms:250,muzzy_decay_ms:0,narenas:1';
const systemHasJemalloc = spawnSync('sh', ['-c', "/sbin/ldconfig -p | grep -q 'libjemalloc\\.so\\.2 '"]).status === 0;

describe('runtime settings (scripts/runtime.sh: npm start, the image and the chart)', () => {
  it('when HEAP_GROWING_PERCENT is 50, then the heap stays within half again the live data, as it does not with V8 left alone', () => {
    const capped = peakHeapMb(50);
    expect(capped).toBeLessThan(85);
    expect(peakHeapMb(0)).toBeGreaterThan(capped);
  });

  it('when the operator sets nothing, then a process gets the 4 MB young generation, the compile cache under node_modules and the house jemalloc settings', () => {
    const seen = underRuntime({});
    expect(seen.NODE_OPTIONS).toBe('--max-semi-space-size=4');
    expect(seen.NODE_COMPILE_CACHE).toBe(`${process.cwd()}/node_modules/.cache/node-compile-cache`);
    expect(seen.MALLOC_CONF).toBe(HOUSE_MALLOC_CONF);
  });

  it("when the operator sets NODE_OPTIONS, MALLOC_CONF and NODE_COMPILE_CACHE, then the house flags come first so the operator's win, and the rest are the operator's", () => {
    const seen = underRuntime({
      NODE_OPTIONS: '--max-semi-space-size=16',
      MALLOC_CONF: 'narenas:4',
      NODE_COMPILE_CACHE: '/tmp/elsewhere',
    });
    expect(seen.NODE_OPTIONS).toBe('--max-semi-space-size=4 --max-semi-space-size=16');
    expect(seen.MALLOC_CONF).toBe('narenas:4');
    expect(seen.NODE_COMPILE_CACHE).toBe('/tmp/elsewhere');
  });

  it("when the operator sets LD_PRELOAD, even empty, then it is theirs and glibc's malloc serves an empty one", () => {
    const seen = underRuntime({ LD_PRELOAD: '' });
    expect(seen.LD_PRELOAD).toBe('');
    expect(seen.jemalloc).toBe(false);
  });

  (systemHasJemalloc ? it : it.skip)(
    'when the system has jemalloc, then a process preloads it and jemalloc accepts every house setting',
    () => {
      const seen = underRuntime({});
      expect(seen.LD_PRELOAD).toBe('libjemalloc.so.2');
      expect(seen.jemalloc).toBe(true);
      // jemalloc names each setting it does not know: "<jemalloc>: Invalid conf pair"
      expect(seen.stderr).toBe('');
      expect(underRuntime({ MALLOC_CONF: 'dirty_decay:250' }).stderr).toContain('Invalid conf pair');
    },
  );
});
