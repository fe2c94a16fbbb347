import { randomBytes } from 'node:crypto';
import { setNow } from '@finance/shared/clock';
import { ensureDatabase } from '@finance/shared/db/orm';
import { createLogger } from '@finance/shared/logger';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { type RunningService, startService } from '@finance/shared/service/start-service';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  dropDatabase,
  testDatabaseName,
  withDatabase,
} from '@finance/shared/testing/servers';
import pg from 'pg';
import { billingService } from '../../services/billing/src/billing-service.ts';
import { type BillingConfig, loadBillingConfig } from '../../services/billing/src/config.ts';
import { ROLLOVER_SCHEDULER_ID } from '../../services/billing/src/entry-points/jobs/bill-rollover-worker.ts';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import {
  createCompany,
  createKey,
  createUser,
  revokeKey,
  type Scope,
  setLicense,
} from '../../services/gateway/src/domain/manage-access.ts';
import { startGateway } from '../../services/gateway/src/start-gateway.ts';
import { type InsightsConfig, loadInsightsConfig } from '../../services/insights/src/config.ts';
import { CASH_FLOW_ALERTS_SCHEDULER_ID } from '../../services/insights/src/entry-points/jobs/cash-flow-alerts-worker.ts';
import { insightsService } from '../../services/insights/src/insights-service.ts';
import { type LedgerConfig, loadLedgerConfig } from '../../services/ledger/src/config.ts';
import { ledgerService } from '../../services/ledger/src/ledger-service.ts';
import { ApiClient, type KeyCredentials } from './api-client.ts';
import { deleteRedisKeys } from './redis-keys.ts';
import { type SandboxProcess, type SandboxStart, sandboxFor } from './sandbox-bank.ts';

export interface StackOptions {
  /** Environment overrides for every service (e.g. REDIS_URL, RATE_LIMIT_MAX). */
  env?: Record<string, string>;
  /** Environment overrides for one service (e.g. `{ ledger: { ROLE: 'api' } }` to leave its queues to another process). */
  serviceEnv?: Partial<Record<'ledger' | 'billing' | 'insights', Record<string, string>>>;
  /** PostgreSQL server the test database is created on (default: DATABASE_URL or the local one). */
  databaseServerUrl?: string;
  /** Counts SQL statements per service, for tests that bound queries. */
  onQuery?: (service: string, sql: string) => void;
  /** Planner and session settings of the test database, set before any service connects (`enable_seqscan`). */
  databaseSettings?: Record<string, string>;
  /** Starts Banco Sandbox on a free port and configures the ledger to connect to it (`stack.sandbox`). */
  sandbox?: boolean | SandboxStart;
}

export interface Tenant {
  userId: string;
  /** read+write key in the personal context */
  api: ApiClient;
  /** read-only key in the personal context */
  readOnly: ApiClient;
  key: KeyCredentials;
}

async function applyDatabaseSettings(databaseUrl: string, settings: Record<string, string>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    for (const [setting, value] of Object.entries(settings))
      await client.query(`alter database "${name}" set ${setting} = '${value.replace(/'/g, "''")}'`);
  } finally {
    await client.end();
  }
}

/**
 * The whole system in this process on free ports, against a fresh database and its own queue
 * prefix, so test files run side by side without seeing each other.
 */
export class TestStack {
  readonly databaseUrl: string;
  readonly url: string;
  readonly services: RunningService[];
  /** Each service with its own config type (what a test hands to a service's client factory). */
  readonly ledger: RunningService<LedgerConfig>;
  readonly billing: RunningService<BillingConfig>;
  readonly insights: RunningService<InsightsConfig>;
  private readonly gateway: Awaited<ReturnType<typeof startGateway>>;
  private readonly gatewayConfig: ReturnType<typeof loadGatewayConfig>;
  private readonly replicas: Awaited<ReturnType<typeof startGateway>>[] = [];
  private readonly pool: pg.Pool;
  readonly pepper: string;
  readonly env: Record<string, string>;
  /** Billing's job schedulers as it registered them, before the stack took the hourly rollover's out (start). */
  readonly billingSchedulersAtStart: string[];
  /** Banco Sandbox, when the stack was started with `sandbox`. */
  readonly sandbox: SandboxProcess | null;

  private constructor(init: {
    databaseUrl: string;
    gateway: Awaited<ReturnType<typeof startGateway>>;
    gatewayConfig: ReturnType<typeof loadGatewayConfig>;
    ledger: RunningService<LedgerConfig>;
    billing: RunningService<BillingConfig>;
    insights: RunningService<InsightsConfig>;
    pepper: string;
    env: Record<string, string>;
    billingSchedulersAtStart: string[];
    sandbox: SandboxProcess | null;
  }) {
    this.databaseUrl = init.databaseUrl;
    this.gateway = init.gateway;
    this.gatewayConfig = init.gatewayConfig;
    this.url = init.gateway.url;
    this.ledger = init.ledger;
    this.billing = init.billing;
    this.insights = init.insights;
    this.services = [init.ledger, init.billing, init.insights];
    this.pepper = init.pepper;
    this.env = init.env;
    this.billingSchedulersAtStart = init.billingSchedulersAtStart;
    this.sandbox = init.sandbox;
    this.pool = new pg.Pool({ connectionString: init.databaseUrl, max: 3 });
  }

  static async start(options: StackOptions = {}): Promise<TestStack> {
    const suffix = randomBytes(6).toString('hex');
    const databaseUrl = withDatabase(
      options.databaseServerUrl ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      testDatabaseName(suffix),
    );
    await ensureDatabase(databaseUrl);
    if (options.databaseSettings) await applyDatabaseSettings(databaseUrl, options.databaseSettings);
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
      QUEUE_PREFIX: `t${suffix}`,
      PORT: '0',
      ...options.env,
    };
    const logger = createLogger('test', env.LOG_LEVEL);
    const onQuery = (service: string) =>
      options.onQuery ? (sql: string) => options.onQuery?.(service, sql) : undefined;
    const services: Array<{ stop(): Promise<void> }> = [];
    try {
      const ledger = await startService(ledgerService, loadLedgerConfig({ ...env, ...options.serviceEnv?.ledger }), {
        logger,
        onQuery: onQuery('ledger'),
      });
      services.push(ledger);
      const billing = await startService(
        billingService,
        loadBillingConfig({ ...env, ...options.serviceEnv?.billing, LEDGER_URL: ledger.url }),
        {
          logger,
          onQuery: onQuery('billing'),
        },
      );
      services.push(billing);
      // tests date their bills themselves: the hourly rollover (at :20 UTC, by today's date) would carry a
      // test's past bills on to today's in the middle of it; tests run the rollover job with their own dates
      const rollovers = billing.runtime.queues.get(QUEUES.billRollover);
      const billingSchedulersAtStart = (await rollovers.getJobSchedulers()).map((s) => s.key ?? s.id ?? '');
      await rollovers.removeJobScheduler(ROLLOVER_SCHEDULER_ID);
      // the ledger starts first (billing needs its URL), so it learns billing's port once billing listens
      ledger.runtime.config.BILLING_URL = billing.url;
      const insights = await startService(
        insightsService,
        loadInsightsConfig({
          ...env,
          ...options.serviceEnv?.insights,
          LEDGER_URL: ledger.url,
          BILLING_URL: billing.url,
        }),
        { logger, onQuery: onQuery('insights') },
      );
      services.push(insights);
      // the minute's cash-flow alerts would notify shortfalls in any test's context as its entries change: tests of
      // the alerts run the job themselves (`runInsightsJob`), at the clock they set
      await insights.runtime.queues.get(QUEUES.cashFlowAlerts).removeJobScheduler(CASH_FLOW_ALERTS_SCHEDULER_ID);
      const gatewayConfig = loadGatewayConfig({
        ...env,
        LEDGER_URL: ledger.url,
        BILLING_URL: billing.url,
        INSIGHTS_URL: insights.url,
      });
      const gateway = await startGateway(gatewayConfig, logger);
      services.push(gateway);
      let sandbox: SandboxProcess | null = null;
      if (options.sandbox) {
        // the institution knows our callback (the gateway's) as its client's redirect URI; the ledger reads its
        // institutions on first use, so it learns the sandbox's address here, like BILLING_URL above
        const started = await sandboxFor(
          `${gateway.url}/v1/open-banking/callback`,
          options.sandbox === true ? {} : options.sandbox,
        );
        sandbox = started.sandbox;
        services.push(sandbox);
        Object.assign(
          ledger.runtime.config,
          loadLedgerConfig({ ...env, ...options.serviceEnv?.ledger, ...started.ledgerEnv }),
          {
            BILLING_URL: billing.url,
            PORT: ledger.runtime.config.PORT,
          },
        );
      }
      return new TestStack({
        databaseUrl,
        gateway,
        gatewayConfig,
        ledger,
        billing,
        insights,
        pepper: gatewayConfig.KEY_PEPPER,
        env,
        billingSchedulersAtStart,
        sandbox,
      });
    } catch (err) {
      for (const service of services.reverse()) await service.stop().catch(() => undefined);
      await dropDatabase(databaseUrl).catch(() => undefined);
      throw err;
    }
  }

  service(name: 'ledger'): RunningService<LedgerConfig>;
  service(name: 'billing'): RunningService<BillingConfig>;
  service(name: 'insights'): RunningService<InsightsConfig>;
  service(name: string): RunningService;
  service(name: string): RunningService {
    const found = this.services.find((service) => service.name === name);
    if (!found) throw new Error(`no service ${name}`);
    return found;
  }

  /** Direct SQL on the test database, for assertions only. */
  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(text, params)).rows as T[];
  }

  async createUser(name = 'Test user'): Promise<string> {
    return (await createUser(this.gateway.orm.em.fork(), name)).user_id;
  }

  async createCompany(userId: string, license: 'active' | 'inactive' = 'active'): Promise<string> {
    return (await createCompany(this.gateway.orm.em.fork(), { userId, name: 'Empresa Teste Ltda', license }))
      .profile_id;
  }

  async setLicense(profileId: string, license: 'active' | 'inactive'): Promise<void> {
    await setLicense(this.gateway.orm.em.fork(), profileId, license);
  }

  async createKey(
    userId: string,
    scopes: Scope[] = ['read', 'write'],
    profileId: string | null = null,
  ): Promise<KeyCredentials> {
    const key = await createKey(this.gateway.orm.em.fork(), { userId, profileId, scopes, pepper: this.pepper });
    return { keyId: key.key_id, token: key.token, secret: key.secret };
  }

  async revokeKey(keyId: string): Promise<void> {
    await revokeKey(this.gateway.orm.em.fork(), keyId);
  }

  client(key?: KeyCredentials): ApiClient {
    return new ApiClient(this.url, key);
  }

  /** Another gateway replica on its own port, same database, Redis and services; stopped with the stack. */
  async startGatewayReplica(): Promise<{ url: string; client(key?: KeyCredentials): ApiClient }> {
    const replica = await startGateway(this.gatewayConfig, createLogger('test', this.env.LOG_LEVEL));
    this.replicas.push(replica);
    return { url: replica.url, client: (key?: KeyCredentials) => new ApiClient(replica.url, key) };
  }

  /** A user with a read+write key and a read-only key in the personal context. */
  async tenant(): Promise<Tenant> {
    const userId = await this.createUser();
    const key = await this.createKey(userId);
    const readKey = await this.createKey(userId, ['read']);
    return { userId, key, api: this.client(key), readOnly: this.client(readKey) };
  }

  /** A company context of a user, with a read+write key (license active unless said). */
  async companyClient(userId: string, license: 'active' | 'inactive' = 'active') {
    const profileId = await this.createCompany(userId, license);
    const key = await this.createKey(userId, ['read', 'write'], profileId);
    return { profileId, api: this.client(key), key };
  }

  /**
   * Fixes the one clock every service of this in-process stack reads (`@finance/shared/clock`) at an
   * instant, e.g. `2026-03-17T23:30:00-03:00`; `null` lets it run again (from `TEST_NOW` when the run set one).
   * The database keeps its own.
   */
  setNow(instant: string | null): void {
    setNow(instant);
  }

  async stop(): Promise<void> {
    for (const replica of this.replicas) await replica.stop();
    // the clock of this test file goes on as its set-up started it (TEST_NOW), unfixed
    setNow(null);
    await this.gateway.stop();
    await this.sandbox?.stop();
    for (const service of [...this.services].reverse()) await service.stop();
    await this.pool.end();
    // its queues, schedulers, rate-limit and idempotency keys go with it
    await deleteRedisKeys(this.env.REDIS_URL, `${this.env.QUEUE_PREFIX}:*`).catch(() => undefined);
    // dropping here would kill connections a late query reopened in this process: the global teardown drops it
    if (!process.env.TEST_RUN_ID) await dropDatabase(this.databaseUrl);
  }
}
