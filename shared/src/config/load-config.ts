import Joi from 'joi';

/**
 * Validates the environment against a service's schema at start; the only place that reads configuration from
 * process.env (the clock only checks NODE_ENV=test before a test moves it).
 * A variable set to the empty string counts as unset (compose's `${VAR:-}`, an optional Secret key).
 */
export function loadConfig<T>(schema: Joi.ObjectSchema<T>, env: NodeJS.ProcessEnv = process.env): T {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const { value, error } = schema.validate(given, {
    abortEarly: false,
    allowUnknown: true,
    stripUnknown: true,
    convert: true,
  });
  if (error) {
    const problems = error.details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return value;
}

const DEV_SECRET = 'dev-only-internal-secret-change-me-in-production';

/** Keys every service reads; a service schema extends this with its own. */
export const commonConfigKeys = {
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development').description('Runtime mode'),
  LOG_LEVEL: Joi.string()
    .valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent')
    .default('info')
    .description('pino log level'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .default('postgresql://postgres@127.0.0.1:5432/finance')
    .description('PostgreSQL database; created when missing'),
  REDIS_URL: Joi.string()
    .uri({ scheme: ['redis', 'rediss'] })
    .default('redis://127.0.0.1:6379')
    .description('Redis for BullMQ queues and rate limits'),
  INTERNAL_SECRET: Joi.string()
    .min(32)
    .when('NODE_ENV', { is: 'production', then: Joi.required(), otherwise: Joi.optional().default(DEV_SECRET) })
    .description('HMAC secret signing the context the gateway passes to services'),
  ROLE: Joi.string().valid('api', 'worker', 'all').default('all').description('Serve HTTP, run workers, or both'),
  MIGRATE_ON_START: Joi.boolean().default(true).description('Apply this service schema migrations at start'),
  OTEL_EXPORTER_OTLP_ENDPOINT: Joi.string().uri().optional().description('OTLP endpoint; tracing is off when unset'),
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[\w-]{1,32}$/)
    .default('finance')
    .description('Redis key prefix of every BullMQ queue (isolates environments sharing one Redis)'),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(1000).default(20000).description('Grace period for SIGTERM'),
  WORKER_QUEUES: Joi.string()
    .pattern(/^[\w.-]+(,[\w.-]+)*$/)
    .optional()
    .description(
      'Worker role: the queues this process consumes, comma-separated (`outbox` is the outbox relay), or every queue of the service but those named with a leading `-` (`-ledger.statement-files`); unset: every queue of the service',
    ),
  WORKER_CONCURRENCY: Joi.number()
    .integer()
    .min(1)
    .max(100)
    .default(4)
    .description('Jobs a worker runs at once per queue, for queues whose code does not fix it (singletons run 1)'),
  OUTBOX_POLL_MS: Joi.number()
    .integer()
    .min(10)
    .max(60000)
    .default(200)
    .description(
      'How often the outbox relay looks for rows to send (10–60000); a command that queues a job (an import, a rule applied to existing transactions) wakes it at once in its own process',
    ),
  OUTBOX_RETENTION_DAYS: Joi.number()
    .integer()
    .min(1)
    .default(7)
    .description('Relayed outbox rows older than this many days are deleted by the hourly retention job'),
  INBOX_RETENTION_DAYS: Joi.number()
    .integer()
    .min(1)
    .default(30)
    .description(
      'Inbox rows (processed event ids) older than this many days are deleted by the hourly retention job; keep it above the longest redelivery',
    ),
  HEAP_GROWING_PERCENT: Joi.number()
    .integer()
    .min(0)
    .max(400)
    .default(50)
    .description(
      "How far V8 lets a service's heap grow past what its last full collection kept, in percent (0: V8's own factor, up to 4×): 50 holds a service near 200 MB RSS under bursts of bills or reports",
    ),
  SHUTDOWN_DELAY_MS: Joi.number()
    .integer()
    .min(0)
    .default(0)
    .description(
      'After SIGTERM, keep serving this long (readiness 503, responses close their connection) before closing the port; Kubernetes uses a preStop sleep instead',
    ),
};

export interface CommonConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  LOG_LEVEL: string;
  DATABASE_URL: string;
  REDIS_URL: string;
  INTERNAL_SECRET: string;
  ROLE: 'api' | 'worker' | 'all';
  MIGRATE_ON_START: boolean;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  QUEUE_PREFIX: string;
  SHUTDOWN_TIMEOUT_MS: number;
  SHUTDOWN_DELAY_MS: number;
  HEAP_GROWING_PERCENT: number;
  WORKER_QUEUES?: string;
  WORKER_CONCURRENCY: number;
  OUTBOX_POLL_MS: number;
  OUTBOX_RETENTION_DAYS: number;
  INBOX_RETENTION_DAYS: number;
}

/** The shared keys alone: for tools that touch every schema (migrations) and need no service secret. */
export const loadCommonConfig = (env: NodeJS.ProcessEnv = process.env): CommonConfig =>
  loadConfig(Joi.object<CommonConfig>(commonConfigKeys), env);
