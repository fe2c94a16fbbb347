import { flushCompileCache, getCompileCacheDir, registerHooks } from 'node:module';

/** What every service's main.ts imports from the shared package. */
const SHARED_STARTUP = [
  '@finance/shared/logger',
  '@finance/shared/service/run-main',
  '@finance/shared/telemetry/tracing',
  '@finance/shared/service/start-service',
];
/**
 * What each service's main.ts imports besides the shared modules above, statically or once its telemetry
 * runs, and what a service imports later (the gateway's OpenAPI builder, on the first read of the document).
 */
const SERVICE_MODULES = {
  ledger: ['config.ts', 'ledger-service.ts'],
  billing: ['config.ts', 'billing-service.ts'],
  insights: ['config.ts', 'insights-service.ts'],
  gateway: ['config.ts', 'start-gateway.ts', 'entry-points/http/openapi.ts'],
} as const;
type Service = keyof typeof SERVICE_MODULES;
const SERVICES = Object.keys(SERVICE_MODULES) as Service[];

const sourceUrl = (service: Service, file: string) =>
  new URL(`../services/${service}/src/${file}`, import.meta.url).href;
/** The supervisor of `npm start` (it runs before this step fills the cache, so the next start finds it warm). */
const SUPERVISOR = new URL('./start.ts', import.meta.url).href;
const SUPERVISOR_MODULES = [new URL('./restart-policy.ts', import.meta.url).href];
/** Banco Sandbox, which `npm start` runs beside the services in development. */
const SANDBOX = new URL('../sandbox/src/main.ts', import.meta.url).href;
const SANDBOX_MODULES = [new URL('../sandbox/src/server.ts', import.meta.url).href];

/**
 * Loads every module the services, the supervisor and Banco Sandbox load, without starting any, and writes Node's
 * compile cache (`NODE_COMPILE_CACHE`): a process that finds its type-stripped sources there never loads the TypeScript
 * stripper (≈20 MB it would keep for its lifetime) and compiles less. Run it in a process of its own, which
 * exits after (it keeps all it imported). False when the compile cache is off.
 */
export async function warmCompileCache(): Promise<boolean> {
  if (!getCompileCacheDir()) return false;
  const mains = new Set([...SERVICES.map((service) => sourceUrl(service, 'main.ts')), SUPERVISOR, SANDBOX]);
  // a main.ts (or the supervisor) starts its service when evaluated: its imports resolve to an empty module, so it is stripped,
  // compiled and cached, then fails to link before any of its code runs
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      context.parentURL && mains.has(context.parentURL)
        ? { url: 'data:text/javascript,', shortCircuit: true }
        : nextResolve(specifier, context),
  });
  for (const main of mains) {
    await import(main).then(
      () => {
        throw new Error(`${main} linked against empty modules: it imports nothing by name any more?`);
      },
      (err: unknown) => {
        if (!(err instanceof SyntaxError)) throw err;
      },
    );
  }
  const modules = new Set<string>([...SHARED_STARTUP, ...SUPERVISOR_MODULES, ...SANDBOX_MODULES]);
  for (const service of SERVICES) for (const file of SERVICE_MODULES[service]) modules.add(sourceUrl(service, file));
  await Promise.all([...modules].map((specifier) => import(specifier)));
  flushCompileCache();
  return true;
}
