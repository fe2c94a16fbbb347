import { type CommonConfig, commonConfigKeys, loadConfig } from '@finance/shared/config/load-config';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import Joi from 'joi';

export interface LedgerConfig extends CommonConfig {
  PORT: number;
  BILLING_URL: string;
  BANK_LOGO_BASE_URL: string;
  RECATEGORIZATION_LOCK_MS: number;
  RECATEGORIZATION_LANES: number;
  BILL_READS_IN_FLIGHT: number;
}

export const ledgerConfigSchema = Joi.object<LedgerConfig>({
  ...commonConfigKeys,
  PORT: Joi.number().port().default(8081).description('Internal HTTP port'),
  BILLING_URL: Joi.string().uri().default('http://127.0.0.1:8082').description('Billing internal base URL'),
  BANK_LOGO_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://static.finance-api.dev/banks')
    .description('Base URL of bank logos; a bank code resolves to `<base>/<code>.png`'),
  RECATEGORIZATION_LOCK_MS: Joi.number()
    .integer()
    .min(1000)
    .default(30000)
    .description(
      "Lock of a running recategorization job and its stalled-check interval: a crashed worker's run is resumed by another within about twice this",
    ),
  RECATEGORIZATION_LANES: Joi.number()
    .integer()
    .min(1)
    .max(8)
    .default(2)
    .description(
      'Id ranges a rule applied to history is split into, walked side by side by its job, each on its own database connection (at most one per 5,000 matches): PostgreSQL runs one UPDATE on one core, so two lanes use two',
    ),
  BILL_READS_IN_FLIGHT: Joi.number()
    .integer()
    .min(1)
    .max(64)
    .default(4)
    .description(
      "Bills' transaction lists the ledger reads and writes out at once; more wait their turn in order. Each holds a database connection and sends its rows as they are read, in pieces of about 64 KB: the bound keeps a burst of bills from taking every pool connection and from growing the process's memory",
    ),
});

export const loadLedgerConfig = (env: NodeJS.ProcessEnv = process.env): LedgerConfig =>
  loadConfig(ledgerConfigSchema, env);

/** What this service's routes and workers get, with its config typed. */
export type LedgerRuntime = ServiceRuntime<LedgerConfig>;
