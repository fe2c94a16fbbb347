/**
 * Test-only preload (`NODE_OPTIONS=--import=<this file>`, npm-start.test.ts): in a service process, a request whose
 * id is `fault-<service>-reject-…` leaves a rejected promise nobody catches and stays in flight, and one whose id
 * is `fault-<service>-interval-…` starts an interval that throws; in the supervisor (scripts/start.ts), SIGUSR2
 * leaves a rejected promise nobody catches. Every other process (npm, the one-shot steps) loads nothing.
 * Production cannot reach it: it lives under test/, which the image leaves out, and only a preload sets the
 * in-process hook it uses (`inFlightTestHooks`).
 */
const main = process.argv[1] ?? '';
const service = /services\/(\w+)\/src\/main\.ts$/.exec(main)?.[1];

if (main.endsWith('scripts/start.ts')) {
  process.on('SIGUSR2', () => {
    Promise.reject(new Error('a rejection in the supervisor (test)'));
  });
}

if (service) {
  const { inFlightTestHooks } = await import('@finance/shared/http/in-flight');
  inFlightTestHooks.onRequest = (req) => {
    const [, target, kind] = /^fault-(\w+)-(reject|interval)-/.exec(req.id) ?? [];
    if (target !== service) return undefined;
    if (kind === 'reject') {
      Promise.reject(new Error('a rejection nobody catches (test)'));
      // the request stays in flight: the fault answers it
      return new Promise(() => undefined);
    }
    setInterval(() => {
      throw new Error('an interval that throws (test)');
    }, 300);
    return undefined;
  };
}
