import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  DEFAULT_COMPILE_CACHE,
  JEMALLOC_PATHS,
  SERVICE_MALLOC_CONF,
  SERVICE_MALLOC_TUNABLES,
  SERVICE_NODE_FLAGS,
  serviceAllocatorEnv,
  serviceTuningEnv,
} from '../../scripts/service-tuning.ts';

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

  it('when the image runs a service, then it gets the same malloc thresholds and the same jemalloc as npm start gives it', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(dockerfile).toContain(`GLIBC_TUNABLES=${SERVICE_MALLOC_TUNABLES}\n`);
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends [^\n]*\blibjemalloc2\b/);
    expect(dockerfile).toContain('LD_PRELOAD=libjemalloc.so.2 ');
    expect(dockerfile).toContain(`MALLOC_CONF=${SERVICE_MALLOC_CONF}\n`);
  });
});

describe('service processes: the allocator npm start gives them', () => {
  const debian = JEMALLOC_PATHS[0] as string;
  const fedora = '/usr/lib64/libjemalloc.so.2';

  it('when the machine has jemalloc, then each service preloads the first library found, with the house settings', () => {
    expect(serviceAllocatorEnv({}, (path) => path === fedora)).toEqual({
      LD_PRELOAD: fedora,
      MALLOC_CONF: SERVICE_MALLOC_CONF,
    });
    expect(serviceAllocatorEnv({ SERVICE_MALLOC: 'jemalloc' }, () => true).LD_PRELOAD).toBe(debian);
  });

  it("when the machine has no jemalloc, SERVICE_MALLOC is system or the operator preloads their own, then nothing is preloaded by npm start (the operator's LD_PRELOAD passes through)", () => {
    expect(serviceAllocatorEnv({}, () => false)).toEqual({ MALLOC_CONF: SERVICE_MALLOC_CONF });
    expect(serviceAllocatorEnv({ SERVICE_MALLOC: 'system' }, () => true)).toEqual({ MALLOC_CONF: SERVICE_MALLOC_CONF });
    expect(serviceAllocatorEnv({ LD_PRELOAD: '/opt/tcmalloc.so' }, () => true).LD_PRELOAD).toBeUndefined();
  });

  it('when the operator sets MALLOC_CONF, then theirs replaces the house settings', () => {
    expect(serviceAllocatorEnv({ MALLOC_CONF: 'narenas:4' }, () => true).MALLOC_CONF).toBe('narenas:4');
  });

  const library = JEMALLOC_PATHS.find((path) => existsSync(path));
  (library ? it : it.skip)(
    "when a process preloads this machine's jemalloc with the house settings, then jemalloc serves it and accepts every setting",
    () => {
      const run = spawnSync(
        process.execPath,
        ['-e', "process.stdout.write(require('fs').readFileSync('/proc/self/maps', 'utf8'))"],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...serviceAllocatorEnv({}, existsSync) } },
      );
      expect(run.stderr).toBe(''); // jemalloc names each setting it does not know: "<jemalloc>: Invalid conf pair"
      expect(run.stdout).toContain(library);
      const refused = spawnSync(process.execPath, ['-e', '0'], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', LD_PRELOAD: library, MALLOC_CONF: 'dirty_decay:250' },
      });
      expect(refused.stderr).toContain('Invalid conf pair');
    },
  );
});

describe('service processes: the environment npm start gives them', () => {
  it("when the operator sets nothing, then a service gets the house V8 flags, glibc's thresholds and the allocator", () => {
    expect(serviceTuningEnv({}, () => false)).toEqual({
      NODE_OPTIONS: SERVICE_NODE_FLAGS,
      GLIBC_TUNABLES: SERVICE_MALLOC_TUNABLES,
      MALLOC_CONF: SERVICE_MALLOC_CONF,
    });
  });

  it("when the operator sets NODE_OPTIONS or GLIBC_TUNABLES, then the flags come first so the operator's win, and the tunables are the operator's", () => {
    const env = serviceTuningEnv(
      { NODE_OPTIONS: '--max-semi-space-size=16', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' },
      () => false,
    );
    expect(env.NODE_OPTIONS).toBe(`${SERVICE_NODE_FLAGS} --max-semi-space-size=16`);
    expect(env.GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=2');
  });

  it("when npm start runs, then package.json's start script and the supervisor default to the same compile cache", () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(scripts.start).toContain(`NODE_COMPILE_CACHE=\${NODE_COMPILE_CACHE:-${DEFAULT_COMPILE_CACHE}}`);
  });
});
