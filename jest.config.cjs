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
module.exports = {
  testTimeout: 60000,
  // every suite's modules stay in its worker (vm modules): workers grew to 1.7 GB of heap; past this, one is replaced
  workerIdleMemoryLimit: '800MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/test/unit/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...common,
      displayName: 'component',
      testMatch: ['<rootDir>/**/test/component/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
      globalSetup: '<rootDir>/shared/src/testing/global-setup.ts',
      globalTeardown: '<rootDir>/shared/src/testing/global-teardown.ts',
    },
  ],
};
