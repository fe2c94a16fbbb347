import { type CommonConfig, commonConfigKeys, loadConfig } from '@finance/shared/config/load-config';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import Joi from 'joi';

export interface InsightsConfig extends CommonConfig {
  PORT: number;
  LEDGER_URL: string;
  BILLING_URL: string;
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: boolean;
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_RETRY_WINDOW_MS: number;
  WEBHOOK_DISABLE_AFTER_FAILURES: number;
  WEBHOOK_TIMEOUT_MS: number;
  CASH_FLOW_IN_FLIGHT: number;
}

export const insightsConfigSchema = Joi.object<InsightsConfig>({
  ...commonConfigKeys,
  PORT: Joi.number().port().default(8083).description('Internal HTTP port'),
  LEDGER_URL: Joi.string().uri().default('http://127.0.0.1:8081').description('Ledger internal base URL'),
  BILLING_URL: Joi.string().uri().default('http://127.0.0.1:8082').description('Billing internal base URL'),
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: Joi.boolean()
    .default(false)
    .description(
      'Lets webhooks target http URLs and loopback, private or link-local addresses (tests and local development only)',
    ),
  WEBHOOK_RETRY_BASE_MS: Joi.number()
    .integer()
    .min(1)
    .default(60_000)
    .description('First retry delay of a failed webhook delivery; each next one doubles'),
  WEBHOOK_RETRY_WINDOW_MS: Joi.number()
    .integer()
    .min(1)
    .default(86_400_000)
    .description('How long after its event a failed webhook delivery is still retried'),
  WEBHOOK_DISABLE_AFTER_FAILURES: Joi.number()
    .integer()
    .min(1)
    .default(30)
    .description('Failed delivery attempts in a row that disable a webhook (with a notification)'),
  WEBHOOK_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .default(10_000)
    .description('Time a webhook receiver has to answer a delivery'),
  CASH_FLOW_IN_FLIGHT: Joi.number()
    .integer()
    .min(1)
    .max(64)
    .default(2)
    .description(
      "Cash-flow forecasts insights works out at once; more wait their turn in order. Each holds its context's unpaid entries, occurrences and bills ahead, read from the ledger and billing: the bound keeps a burst of forecasts from growing three processes' memory at once",
    ),
});

export const loadInsightsConfig = (env: NodeJS.ProcessEnv = process.env): InsightsConfig =>
  loadConfig(insightsConfigSchema, env);

/** What this service's routes and workers get, with its config typed. */
export type InsightsRuntime = ServiceRuntime<InsightsConfig>;
