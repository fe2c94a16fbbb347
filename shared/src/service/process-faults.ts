import { answerInFlightUnavailable } from '../http/in-flight.ts';
import type { Logger } from '../logger.ts';
import { currentActivity } from './activity.ts';

/** How long the requests in flight have to receive their 503 before the process exits. */
const ANSWERS_LEAVE_MS = 1000;

/**
 * An uncaught exception or unhandled rejection leaves the process in a state no code planned for: it is logged
 * once (one JSON line, with the request or job it happened for when known), the requests in flight get the
 * documented 503, and the process exits with code 1 for its supervisor (`npm start`, Kubernetes) to restart it.
 * Faults after the first, while it goes down, are not logged again.
 */
export function exitOnProcessFaults(name: string, logger: Logger, exit: (code: number) => void = process.exit): void {
  let faulted = false;
  const fault = (origin: string) => (err: unknown) => {
    if (faulted) return;
    faulted = true;
    logger.fatal({ err, origin, ...currentActivity() }, `${name}: ${origin}; exiting`);
    void answerInFlightUnavailable(ANSWERS_LEAVE_MS).finally(() => exit(1));
  };
  process.on('uncaughtException', fault('uncaught exception'));
  process.on('unhandledRejection', fault('unhandled rejection'));
}
