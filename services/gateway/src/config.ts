import { type CommonConfig, commonConfigKeys, loadConfig } from '@finance/shared/config/load-config';
import Joi from 'joi';

const DEV_PEPPER = 'dev-only-key-pepper-change-me-in-production-0000';

export interface GatewayConfig extends CommonConfig {
  PORT: number;
  KEY_PEPPER: string;
  LEDGER_URL: string;
  BILLING_URL: string;
  INSIGHTS_URL: string;
  RATE_LIMIT_WINDOW_MS: number;
  RATE_LIMIT_MAX: number;
  ADMIN_SECRET?: string;
  METRICS_PUBLIC: boolean;
  UPSTREAM_TIMEOUT_MS: number;
}

export const gatewayConfigSchema = Joi.object<GatewayConfig>({
  ...commonConfigKeys,
  PORT: Joi.number().port().default(8080).description('HTTP port (the gateway is public, the services internal)'),
  KEY_PEPPER: Joi.string()
    .min(32)
    .when('NODE_ENV', { is: 'production', then: Joi.required(), otherwise: Joi.optional().default(DEV_PEPPER) })
    .description('Server-side pepper of the HMAC that hashes API secrets'),
  LEDGER_URL: Joi.string().uri().default('http://127.0.0.1:8081').description('Ledger internal base URL'),
  BILLING_URL: Joi.string().uri().default('http://127.0.0.1:8082').description('Billing internal base URL'),
  INSIGHTS_URL: Joi.string().uri().default('http://127.0.0.1:8083').description('Insights internal base URL'),
  RATE_LIMIT_WINDOW_MS: Joi.number().integer().min(1000).default(60_000).description('Rate-limit window per key'),
  RATE_LIMIT_MAX: Joi.number().integer().min(1).default(600).description('Requests per key per window'),
  UPSTREAM_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .default(15_000)
    .description(
      'How long the gateway waits for a service before answering 503 (the write may still commit; a retry with the same Idempotency-Key replays it)',
    ),
  ADMIN_SECRET: Joi.string()
    .min(16)
    .optional()
    .description(
      'Secret of the queue dashboard and of the gateway /metrics (Basic user admin, or bearer); when unset the dashboard is off (an unknown path: 401 without an API key, 404 with one), and so is /metrics in production unless METRICS_PUBLIC',
    ),
  METRICS_PUBLIC: Joi.boolean()
    .default(false)
    .description(
      'Opens the gateway /metrics on the public port without ADMIN_SECRET in production (outside production it is open anyway); with ADMIN_SECRET set it changes nothing',
    ),
});

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(gatewayConfigSchema, env);
