import { createLogger } from '@finance/shared/logger';
import { runMain } from '@finance/shared/service/run-main';
import { startTelemetry } from '@finance/shared/telemetry/tracing';
import { loadInsightsConfig } from './config.ts';

const config = loadInsightsConfig();
const telemetry = await startTelemetry('insights', config.OTEL_EXPORTER_OTLP_ENDPOINT);
// imported after telemetry starts, so http, express, pg, ioredis and undici load already patched
const { startService } = await import('@finance/shared/service/start-service');
const { insightsService } = await import('./insights-service.ts');
const logger = createLogger('insights', config.LOG_LEVEL);
await runMain('insights', config, () => startService(insightsService, config, { logger, telemetry }), logger);
