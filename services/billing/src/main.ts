import { createLogger } from '@finance/shared/logger';
import { runMain } from '@finance/shared/service/run-main';
import { startTelemetry } from '@finance/shared/telemetry/tracing';
import { loadBillingConfig } from './config.ts';

const config = loadBillingConfig();
const telemetry = await startTelemetry('billing', config.OTEL_EXPORTER_OTLP_ENDPOINT);
// imported after telemetry starts, so http, express, pg, ioredis and undici load already patched
const { startService } = await import('@finance/shared/service/start-service');
const { billingService } = await import('./billing-service.ts');
const logger = createLogger('billing', config.LOG_LEVEL);
await runMain('billing', config, () => startService(billingService, config, { logger, telemetry }), logger);
