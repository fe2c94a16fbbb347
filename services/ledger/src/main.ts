import { createLogger } from '@finance/shared/logger';
import { runMain } from '@finance/shared/service/run-main';
import { startTelemetry } from '@finance/shared/telemetry/tracing';
import { loadLedgerConfig } from './config.ts';

const config = loadLedgerConfig();
const telemetry = await startTelemetry('ledger', config.OTEL_EXPORTER_OTLP_ENDPOINT);
// imported after telemetry starts, so http, express, pg, ioredis and undici load already patched
const { startService } = await import('@finance/shared/service/start-service');
const { ledgerService } = await import('./ledger-service.ts');
const logger = createLogger('ledger', config.LOG_LEVEL);
await runMain('ledger', config, () => startService(ledgerService, config, { logger, telemetry }), logger);
