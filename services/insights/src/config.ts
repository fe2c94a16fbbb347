import { type CommonConfig, commonConfigKeys, loadConfig } from '@finance/shared/config/load-config';
import Joi from 'joi';

export interface InsightsConfig extends CommonConfig {
  PORT: number;
  LEDGER_URL: string;
  BILLING_URL: string;
}

export const insightsConfigSchema = Joi.object<InsightsConfig>({
  ...commonConfigKeys,
  PORT: Joi.number().port().default(8083).description('Internal HTTP port'),
  LEDGER_URL: Joi.string().uri().default('http://127.0.0.1:8081').description('Ledger internal base URL'),
  BILLING_URL: Joi.string().uri().default('http://127.0.0.1:8082').description('Billing internal base URL'),
});

export const loadInsightsConfig = (env: NodeJS.ProcessEnv = process.env): InsightsConfig =>
  loadConfig(insightsConfigSchema, env);
