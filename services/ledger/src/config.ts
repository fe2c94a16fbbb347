import { type CommonConfig, commonConfigKeys, loadConfig } from '@finance/shared/config/load-config';
import type { ServiceRuntime } from '@finance/shared/service/start-service';
import Joi from 'joi';
import { parseReturnUrls } from './domain/open-banking/return-urls.ts';
import { webhookToken } from './domain/open-banking/webhook-token.ts';

export interface LedgerConfig extends CommonConfig {
  PORT: number;
  BILLING_URL: string;
  BANK_LOGO_BASE_URL: string;
  RECATEGORIZATION_LOCK_MS: number;
  RECATEGORIZATION_LANES: number;
  STATEMENT_FILES_LOCK_MS: number;
  BILL_READS_IN_FLIGHT: number;
  OPEN_BANKING_PARTICIPANTS?: string;
  OPEN_BANKING_CLIENTS?: string;
  OPEN_BANKING_REDIRECT_URI: string;
  OPEN_BANKING_RETURN_URLS?: string;
  OPEN_BANKING_ENCRYPTION_KEYS?: string;
  OPEN_BANKING_SYNC_INTERVAL_MS: number;
  OPEN_BANKING_TIMEOUT_MS: number;
  OPEN_BANKING_CONSENT_DAYS: number;
  OPEN_BANKING_ALLOW_HTTP: boolean;
  PLUGGY_CLIENT_ID?: string;
  PLUGGY_CLIENT_SECRET?: string;
  PLUGGY_API_URL: string;
  PLUGGY_WEBHOOK_URL?: string;
  PLUGGY_WEBHOOK_INTERVAL_MS: number;
}

/** Development only: a fixed key (id `dev`), so tokens stored by one start open on the next. */
const DEV_ENCRYPTION_KEYS = `dev:${Buffer.alloc(32, 'finance-api-development-only-key').toString('base64')}`;

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
  STATEMENT_FILES_LOCK_MS: Joi.number()
    .integer()
    .min(1000)
    .default(30000)
    .description(
      "Lock of a running statement file import and its stalled-check interval: a killed worker's import is taken over by another within about twice this, and goes on from its last batch",
    ),
  BILL_READS_IN_FLIGHT: Joi.number()
    .integer()
    .min(1)
    .max(64)
    .default(4)
    .description(
      "Bills' transaction lists the ledger reads and writes out at once; more wait their turn in order. Each holds a database connection and sends its rows as they are read, in pieces of about 64 KB: the bound keeps a burst of bills from taking every pool connection and from growing the process's memory",
    ),
  OPEN_BANKING_PARTICIPANTS: Joi.string().description(
    "Open Finance Brasil institutions: the directory's participants list (its JSON format: organisations, their `AuthorisationServers` with `OpenIDDiscoveryDocument` and `ApiResources`), as a file path or the JSON itself; unset: no institution (docs/open-banking.md)",
  ),
  OPEN_BANKING_CLIENTS: Joi.string().description(
    'Our registration at each authorisation server of the participants list: `[{authorisation_server_id, client_id, signing_key (private JWK, or sealed with OPEN_BANKING_ENCRYPTION_KEYS), signing_key_id, mtls: {cert, key, ca}, test_cpf}]`, a file path or the JSON itself; only institutions listed here are offered',
  ),
  OPEN_BANKING_REDIRECT_URI: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:8080/v1/open-banking/callback')
    .description(
      "The gateway's public callback as registered at the institutions (`<public URL>/v1/open-banking/callback`)",
    ),
  OPEN_BANKING_RETURN_URLS: Joi.string()
    .custom((value: string, helpers) => {
      const { invalid } = parseReturnUrls(value, helpers.state.ancestors[0].NODE_ENV === 'production');
      return invalid === null ? value : helpers.message({ custom: `not an allowed return URL: ${invalid}` });
    })
    .description(
      "Where a connection's `redirect_uri` may send the customer's browser after the institution: comma-separated URLs of the front ends (origin and path prefix, e.g. `https://app.example.com/conexoes`); a `redirect_uri` must have one's exact origin and lie under its path; https only in production, no credentials, query or fragment; loopback or private hosts only when listed. Unset: no `redirect_uri` is accepted (the callback answers JSON)",
    ),
  OPEN_BANKING_ENCRYPTION_KEYS: Joi.string()
    .when('NODE_ENV', {
      is: 'production',
      // a deployment with no institution of its own stores no token: the keyring is required once one is configured
      then: Joi.when('OPEN_BANKING_CLIENTS', { is: Joi.exist(), then: Joi.required() }),
      otherwise: Joi.optional().default(DEV_ENCRYPTION_KEYS),
    })
    .description(
      'Keys sealing refresh tokens and authorization secrets at rest (AES-256-GCM): `kid:base64(32 bytes)[,kid:…]`, the first seals, every one opens; rotate by putting a new key first. In production required once OPEN_BANKING_CLIENTS is set',
    ),
  OPEN_BANKING_SYNC_INTERVAL_MS: Joi.number()
    .integer()
    .min(60_000)
    .default(6 * 3600_000)
    .description(
      'How often every ACTIVE connection syncs (a job scheduler; 6 h keeps within the institutions’ call limits)',
    ),
  OPEN_BANKING_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .default(15_000)
    .description('How long one call to an institution may take before it counts as not answering'),
  OPEN_BANKING_CONSENT_DAYS: Joi.number()
    .integer()
    .min(1)
    .max(365)
    .default(365)
    .description('Lifetime of the consents a connection asks for (the documents allow up to 12 months)'),
  OPEN_BANKING_ALLOW_HTTP: Joi.boolean()
    .default(false)
    .description(
      'Lets institutions be reached over plain HTTP (Banco Sandbox on loopback in development); never in production',
    ),
  PLUGGY_CLIENT_ID: Joi.string().description(
    'Pluggy client id: with the secret, "Pluggy" is offered as an institution (docs/open-banking.md)',
  ),
  PLUGGY_CLIENT_SECRET: Joi.string().description('Pluggy client secret'),
  PLUGGY_API_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://api.pluggy.ai')
    .description('Pluggy API base URL (the SDK reads it as PLUGGY_API_URL)'),
  PLUGGY_WEBHOOK_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .custom((value: string, helpers) =>
      webhookToken(value) === null
        ? helpers.message({ custom: 'needs a secret `token` query parameter of 32 or more characters' })
        : value,
    )
    .description(
      "The gateway's public Pluggy webhook with a secret of 32+ random characters (`<public URL>/v1/open-banking/pluggy/webhook?token=<secret>`), given to the items it connects; a call without that token is answered alike and does nothing. Unset: no webhooks, syncs only",
    ),
  PLUGGY_WEBHOOK_INTERVAL_MS: Joi.number()
    .integer()
    .min(1000)
    .default(300_000)
    .description(
      "A Pluggy item's webhooks act at most once in this interval (the item read back, a sync queued); the others are answered and ignored, the sync reading everything anyway",
    ),
}).and('PLUGGY_CLIENT_ID', 'PLUGGY_CLIENT_SECRET');

export const loadLedgerConfig = (env: NodeJS.ProcessEnv = process.env): LedgerConfig =>
  loadConfig(ledgerConfigSchema, env);

/** What this service's routes and workers get, with its config typed. */
export type LedgerRuntime = ServiceRuntime<LedgerConfig>;
