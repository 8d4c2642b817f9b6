// Jest runs the TypeScript sources directly (ESM, transpile-only: `npm run typecheck`
// and the build do the type checking, so tests stay fast on two cores).
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/support/global-setup.js',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test/real-cluster/'],
  moduleNameMapper: {
    '^#(api|renderer|kube-server|simulator|runtime|kube-core|definitions)$': '<rootDir>/libs/$1/src/index.ts',
    '^#renderer-early$': '<rootDir>/libs/renderer/src/early.ts',
    '^#controller$': '<rootDir>/apps/controller/src/index.ts',
    '^#api-server$': '<rootDir>/apps/api/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  // Bounds a hung test only; waits inside tests (eventually, 30 s) fail first and say where they stood.
  testTimeout: 90000,
};
