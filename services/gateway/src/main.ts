import { createLogger } from '@finance/shared/logger';
import { runMain } from '@finance/shared/service/run-main';
import { startTelemetry } from '@finance/shared/telemetry/tracing';
import { loadGatewayConfig } from './config.ts';

const config = loadGatewayConfig();
const telemetry = await startTelemetry('gateway', config.OTEL_EXPORTER_OTLP_ENDPOINT);
// imported after telemetry starts, so http, express, pg, ioredis and undici load already patched
const { startGateway } = await import('./start-gateway.ts');
const logger = createLogger('gateway', config.LOG_LEVEL);
await runMain('gateway', config, () => startGateway(config, logger, { telemetry }), logger);
