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
// the benchmark harness's own tests: `npm run test:bench` (BENCH_TESTS=1), not `npm test`
const bench = {
  ...common,
  ...servers,
  displayName: 'bench',
  testMatch: ['<rootDir>/bench/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
module.exports = {
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/skipped-suites-reporter.cjs'],
  // every suite's modules stay in its worker (vm modules): workers grew to 1.7 GB of heap; past this, one is replaced
  workerIdleMemoryLimit: '800MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [`<rootDir>/${SUITES}/**/*.unit.test.ts`],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...common,
      displayName: 'component',
      testMatch: [`<rootDir>/${SUITES}/**/*.test.ts`],
      testPathIgnorePatterns: ['/node_modules/', '\\.unit\\.test\\.ts$'],
      ...servers,
    },
    ...(process.env.BENCH_TESTS ? [bench] : []),
  ],
};
