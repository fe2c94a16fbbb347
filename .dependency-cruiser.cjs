/**
 * The layers of every service, checked by `npm run lint` (docs/contributing.md, "Layers"). Paths are matched
 * after resolution, so `@finance/shared/db/sql` is `shared/src/db/sql.ts` and a package is `node_modules/<name>/`.
 * The swc parser keeps `import type` lines as dependencies, so which `@mikro-orm/*` imports of `domain/` are
 * type-only is checked by scripts/check-layers.ts, which also finds SQL text in `domain/` and `entry-points/`.
 */
const DOMAIN = '^services/[^/]+/src/domain/';
const ENTRY_POINTS = '^services/[^/]+/src/entry-points/';
const SQL_HELPER = '(^|/)shared/src/db/sql\\.ts$';
const DRIVERS = '(^|/)node_modules/(pg|pg-[^/]+|bullmq|ioredis|knex)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-no-driver',
      comment:
        'domain/ holds rules and use cases: no database driver, queue or Redis client (pass a port, or call data-access/).',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: DRIVERS },
    },
    {
      name: 'domain-no-sql-helper',
      comment: 'SQL lives in data-access/ behind named functions; domain/ never runs SQL itself.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: SQL_HELPER },
    },
    {
      name: 'entry-points-no-sql',
      comment:
        'entry-points/ are thin: no SQL helper and no driver; they call domain/ (or a data-access client listed below).',
      severity: 'error',
      from: { path: ENTRY_POINTS },
      to: { path: `${SQL_HELPER}|(^|/)node_modules/(pg|pg-[^/]+|knex)/` },
    },
    {
      name: 'entry-points-data-access-wiring-only',
      comment:
        'entry-points/ reach data-access/ only for wiring that is no use case: the HTTP clients of other services, ' +
        'the webhook sender, the rate-lease store, and the writes of event consumers; every other read or write goes through domain/.',
      severity: 'error',
      from: { path: ENTRY_POINTS },
      to: {
        path: '^services/[^/]+/src/data-access/',
        pathNot:
          '^services/[^/]+/src/data-access/(ledger|billing|webhook-sender|rate-leases|context-time-zones|notification-writes)\\.ts$|^services/ledger/src/data-access/transaction-repository\\.ts$',
      },
    },
    {
      name: 'no-cross-service',
      comment: 'A service imports only shared/ (and its own files); another service is reached over HTTP or a queue.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'shared-no-service',
      comment: 'shared/ serves every service and imports none of them.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^services/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '/migrations/' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
