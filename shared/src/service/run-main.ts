import { flushCompileCache } from 'node:module';
import type { CommonConfig } from '../config/load-config.ts';
import type { Logger } from '../logger.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { exitOnProcessFaults } from './process-faults.ts';

/**
 * Runs a service as a process: its heap's growth set from its config, stops cleanly on SIGTERM/SIGINT, exits
 * non-zero when start fails or on an uncaught exception or unhandled rejection (`exitOnProcessFaults`).
 */
export async function runMain(
  name: string,
  config: Pick<CommonConfig, 'HEAP_GROWING_PERCENT'>,
  start: () => Promise<{ stop(): Promise<void> }>,
  logger: Logger,
) {
  exitOnProcessFaults(name, logger);
  limitHeapGrowth(config.HEAP_GROWING_PERCENT);
  let service: { stop(): Promise<void> };
  try {
    service = await start();
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
  // the modules are loaded: keep their compiled code for the next start (a no-op unless NODE_COMPILE_CACHE is set)
  flushCompileCache();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    try {
      await service.stop();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, `${name} did not stop cleanly`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
