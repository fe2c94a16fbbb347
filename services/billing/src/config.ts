import { type CommonConfig, commonConfigKeys, loadConfig } from '@finance/shared/config/load-config';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import Joi from 'joi';

export interface BillingConfig extends CommonConfig {
  PORT: number;
  LEDGER_URL: string;
}

export const billingConfigSchema = Joi.object<BillingConfig>({
  ...commonConfigKeys,
  PORT: Joi.number().port().default(8082).description('Internal HTTP port'),
  LEDGER_URL: Joi.string().uri().default('http://127.0.0.1:8081').description('Ledger internal base URL'),
});

export const loadBillingConfig = (env: NodeJS.ProcessEnv = process.env): BillingConfig =>
  loadConfig(billingConfigSchema, env);

/** What this service's routes and workers get, with its config typed. */
export type BillingRuntime = ServiceRuntime<BillingConfig>;
