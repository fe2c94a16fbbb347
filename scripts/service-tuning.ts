/**
 * How each service process's memory is tuned when the supervisor (`npm start`) or the image starts it; the
 * operator's own values win (docs/performance.md, "Memory").
 */

/**
 * Where `npm start` keeps Node's compile cache unless `NODE_COMPILE_CACHE` names another place (package.json's
 * `start` script names the same): every start after the first finds each service's stripped TypeScript and V8
 * code there, and no service loads the type stripper (≈15–20 MB less per process).
 */
export const DEFAULT_COMPILE_CACHE = 'node_modules/.cache/node-compile-cache';

/**
 * V8 flags of each service process, ahead of the operator's NODE_OPTIONS: a 4 MB young generation (semi-space)
 * instead of V8's default of up to 32 MB keeps ≈20–30 MB less per process at rest; its cost on creates is
 * within this machine's noise but may reach 10–20 %. `--optimize-for-size` would cap the peak under load too,
 * but costs a third of the creates' throughput. (The heap's growth under load is set by each service from
 * `HEAP_GROWING_PERCENT`, a flag Node refuses here.)
 */
export const SERVICE_NODE_FLAGS = '--max-semi-space-size=4';

/**
 * glibc's malloc thresholds, fixed at their 128 KB defaults: left dynamic, the first freed block of a bill's
 * megabytes raises them, and from then on such blocks come from the heap and stay in the process's RSS once
 * freed (≈25–60 MB more at the peak of billing and the gateway under bills). Read by glibc at exec, so it is
 * set in the environment: here for `npm start`, and as the image's ENV (a test keeps the two equal).
 */
export const SERVICE_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072';

/**
 * jemalloc's settings for the services: freed pages go back to the system within ≈250 ms (a background thread
 * purges them; glibc keeps the holes a burst of bills leaves between live blocks until the process ends), one
 * arena for the process's few threads. Ignored by glibc's malloc; an operator's `MALLOC_CONF` replaces it.
 */
export const SERVICE_MALLOC_CONF = 'background_thread:true,dirty_decay_ms:250,muzzy_decay_ms:0,narenas:1';

/** Where Debian, Ubuntu, Fedora, Alpine and Arch put jemalloc's library (package libjemalloc2, jemalloc). */
export const JEMALLOC_PATHS = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
];

/**
 * The allocator `npm start` gives each service: jemalloc preloaded when the machine has it and
 * `SERVICE_MALLOC` is not `system`, glibc's malloc (with `SERVICE_MALLOC_TUNABLES`) otherwise. An operator's
 * own `LD_PRELOAD` wins.
 */
export function serviceAllocatorEnv(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
): { LD_PRELOAD?: string; MALLOC_CONF: string } {
  const MALLOC_CONF = env.MALLOC_CONF ?? SERVICE_MALLOC_CONF;
  if (env.LD_PRELOAD || env.SERVICE_MALLOC === 'system') return { MALLOC_CONF };
  const library = JEMALLOC_PATHS.find(exists);
  return library ? { LD_PRELOAD: library, MALLOC_CONF } : { MALLOC_CONF };
}

/**
 * What a service process's environment adds to `env` for its memory, as `npm start` starts it: the V8 flags ahead
 * of the operator's `NODE_OPTIONS`, glibc's thresholds unless the operator set them, and the allocator.
 */
export function serviceTuningEnv(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
): { NODE_OPTIONS: string; GLIBC_TUNABLES: string; LD_PRELOAD?: string; MALLOC_CONF: string } {
  return {
    NODE_OPTIONS: `${SERVICE_NODE_FLAGS} ${env.NODE_OPTIONS ?? ''}`.trim(),
    GLIBC_TUNABLES: env.GLIBC_TUNABLES ?? SERVICE_MALLOC_TUNABLES,
    ...serviceAllocatorEnv(env, exists),
  };
}
