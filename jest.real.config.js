// `npm run test:real`: the suites listed in test/real-cluster/suites.txt, against the
// real kube-apiserver that test/real-cluster/run.sh starts (REAL_KUBECONFIG).
import { readFileSync } from 'node:fs';
import base from './jest.config.js';

const suites = readFileSync(new URL('./test/real-cluster/suites.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>'],
  testMatch: suites.map((s) => `<rootDir>/${s.replace(/\.ts$/, '')}.ts`),
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 120000,
  maxWorkers: 1,
};
