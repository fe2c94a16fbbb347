// Tests run on Node 24 through @swc/jest (CommonJS output); ESM-only packages load through --experimental-vm-modules.
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
      module: { type: 'commonjs' },
    },
  ],
};
const common = {
  transform,
  // TEST_NOW starts the one clock at another instant (shared/src/testing/test-clock.ts)
  setupFiles: ['<rootDir>/shared/src/testing/test-clock.ts'],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transformIgnorePatterns: ['/node_modules/'],
};
const servers = {
  globalSetup: '<rootDir>/shared/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/shared/src/testing/global-teardown.ts',
};
// Where tests live (docs/contributing.md, "Tests"): `*.unit.test.ts` is the unit project (pure code, no servers:
// `npm run test:unit`); every other `*.test.ts` under these roots is a component test, run with the servers of
// the global setup. bench/ is not among them.
const SUITES = '{services,shared,clients,test}';
// Suites whose outcome depends on the day they run (they seed dates from the running clock, or read "today"):
// besides today, `npm run test:edge-days` (in .ci/run) runs them with the clock started on each of EDGE_DAYS
// (docs/contributing.md, "Dates in tests"). A suite that derives its dates from the clock joins this list; one
// that fixes its clock (`stack.setNow`) for what it asserts needs not. 2.5-3.5 minutes on 2 idle cores (seven suites, five days).
const DATE_SENSITIVE = [
  'services/insights/test/reports.test.ts',
  'services/ledger/test/imports/open-finance-connect.test.ts',
  'services/ledger/test/imports/open-finance-picture.test.ts',
  'services/ledger/test/imports/open-finance-sync.test.ts',
  'services/ledger/test/transactions/recurrence-horizon.test.ts',
  'test/tooling/open-finance-sandbox-schemas.test.ts',
];
// a 1st, a 4th, the last day of a month late at night (the next day in UTC), 31 December 23:30 in São Paulo, 29 February
const EDGE_DAYS = [
  '2027-03-01T09:00:00-03:00',
  '2027-03-04T09:00:00-03:00',
  '2027-04-30T22:30:00-03:00',
  '2026-12-31T23:30:00-03:00',
  '2028-02-29T12:00:00-03:00',
];
// one project per edge day: the suites of every day share the two workers; the clock reads its day (globals)
const edgeDays = EDGE_DAYS.map((day) => ({
  ...common,
  ...servers,
  displayName: `on ${day}`,
  testMatch: DATE_SENSITIVE.map((path) => `<rootDir>/${path}`),
  globals: { TEST_NOW: day },
}));
// the benchmark harness's own tests: `npm run test:bench` (BENCH_TESTS=1), not `npm test`
const bench = {
  ...common,
  ...servers,
  displayName: 'bench',
  testMatch: ['<rootDir>/bench/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
// Timing guards: suites that measure how our processes answer other users while they work. `npm test`
// (scripts/test.ts) runs them after the others, one at a time (TEST_TIMING=only), so a suite beside them on two
// cores does not take their measure; TEST_TIMING=without leaves them out.
const TIMING_SUITES = [
  'test/every-route/statement-reads-p99.test.ts',
  'test/system/database-outage.test.ts',
  'services/billing/test/card-burst.test.ts',
];
const timing = process.env.TEST_TIMING;
const componentSuites =
  timing === 'only'
    ? { testMatch: TIMING_SUITES.map((path) => `<rootDir>/${path}`) }
    : { testMatch: [`<rootDir>/${SUITES}/**/*.test.ts`] };
const leftOut = timing === 'without' ? TIMING_SUITES.map((path) => `<rootDir>/${path}$`) : [];
module.exports = {
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/skipped-suites-reporter.cjs'],
  // every suite's modules stay in its worker (vm modules): workers grew to 1.7 GB of heap; past this, one is replaced
  workerIdleMemoryLimit: '800MB',
  projects: process.env.TEST_EDGE_DAYS
    ? edgeDays
    : [
        ...(timing === 'only'
          ? []
          : [
              {
                ...common,
                displayName: 'unit',
                testMatch: [`<rootDir>/${SUITES}/**/*.unit.test.ts`],
                testPathIgnorePatterns: ['/node_modules/'],
              },
            ]),
        {
          ...common,
          displayName: 'component',
          ...componentSuites,
          testPathIgnorePatterns: ['/node_modules/', '\\.unit\\.test\\.ts$', ...leftOut],
          ...servers,
        },
        ...(process.env.BENCH_TESTS ? [bench] : []),
      ],
};
