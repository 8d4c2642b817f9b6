// `npm run test:real`: the suites listed in test/real-cluster/suites.txt, against the
// real kube-apiserver that test/real-cluster/run.sh starts (REAL_KUBECONFIG).
// The controller's suites (test/controller/) run unchanged, their `./harness.js` mapped to
// test/real-cluster/controller-harness.ts: the real cluster, the controller as its ServiceAccount.
import { readFileSync } from 'node:fs';
import base from './jest.config.js';

const suites = readFileSync(new URL('./test/real-cluster/suites.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const match = (list) => list.map((s) => `<rootDir>/${s.replace(/\.ts$/, '')}.ts`);
const isController = (s) => s.startsWith('test/controller/');

const project = {
  ...base,
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

/** @type {import('jest').Config} */
export default {
  testTimeout: 120000,
  maxWorkers: 1,
  projects: [
    { ...project, displayName: 'real', testMatch: match(suites.filter((s) => !isController(s))) },
    {
      ...project,
      displayName: 'real-controller',
      testMatch: match(suites.filter(isController)),
      moduleNameMapper: {
        '^\\./harness\\.js$': '<rootDir>/test/real-cluster/controller-harness.ts',
        ...base.moduleNameMapper,
      },
    },
  ],
};
