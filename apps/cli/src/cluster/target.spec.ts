import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../output/user-error.js';
import { chooseTarget, namespaceFor } from './target.js';

const dir = mkdtempSync(join(tmpdir(), 'oam-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function kubeconfig(name: string, currentContext?: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- {name: prod, cluster: {server: "https://prod.example:6443"}}',
      '- {name: dev, cluster: {server: "https://dev.example:6443"}}',
      'users:',
      '- {name: me, user: {token: t}}',
      'contexts:',
      '- {name: prod, context: {cluster: prod, user: me}}',
      '- {name: dev, context: {cluster: dev, user: me, namespace: team-a}}',
      ...(currentContext ? [`current-context: ${currentContext}`] : []),
      '',
    ].join('\n'),
  );
  return path;
}

const emptyHome = { HOME: join(dir, 'no-home') };

describe('chooseTarget: a kubeconfig with a current context is the target; none at all, or --local, is the local plane', () => {
  it('no kubeconfig anywhere: the local plane', () => {
    expect(chooseTarget({}, emptyHome)).toEqual({ kind: 'local', why: 'no kubeconfig' });
  });

  it('a KUBECONFIG naming no existing file counts as none (and ~/.kube/config is not consulted)', () => {
    const home = join(dir, 'home-with-config');
    mkdirSync(join(home, '.kube'), { recursive: true });
    copyFileSync(kubeconfig('ignored', 'prod'), join(home, '.kube', 'config'));
    expect(chooseTarget({}, { HOME: home }).kind).toBe('cluster');
    expect(chooseTarget({}, { HOME: home, KUBECONFIG: join(dir, 'missing') }).kind).toBe('local');
  });

  it('KUBECONFIG with a current context: that cluster', () => {
    const t = chooseTarget({}, { ...emptyHome, KUBECONFIG: kubeconfig('a', 'prod') });
    expect(t).toMatchObject({ kind: 'cluster', context: 'prod', server: 'https://prod.example:6443' });
  });

  it('--context picks another context of the file', () => {
    const t = chooseTarget({ context: 'dev' }, { ...emptyHome, KUBECONFIG: kubeconfig('b', 'prod') });
    expect(t).toMatchObject({ kind: 'cluster', context: 'dev', server: 'https://dev.example:6443' });
  });

  it("-n wins; else the context's namespace, as kubectl; else default", () => {
    const env = { ...emptyHome, KUBECONFIG: kubeconfig('ns', 'dev') };
    expect(namespaceFor(chooseTarget({}, env), undefined)).toBe('team-a');
    expect(namespaceFor(chooseTarget({}, env), 'mine')).toBe('mine');
    expect(namespaceFor(chooseTarget({ context: 'prod' }, env), undefined)).toBe('default');
    expect(namespaceFor(chooseTarget({}, emptyHome), undefined)).toBe('default');
  });

  it('an unknown --context is invalid input, naming the contexts there are', () => {
    expect(() =>
      chooseTarget({ context: 'nope' }, { ...emptyHome, KUBECONFIG: kubeconfig('c', 'prod') }),
    ).toThrow(/no context "nope" in .* \(it has: prod, dev\)/);
  });

  it('--local wins over a kubeconfig, and refuses --kubeconfig/--context beside it', () => {
    expect(chooseTarget({ local: true }, { ...emptyHome, KUBECONFIG: kubeconfig('d', 'prod') }).kind).toBe(
      'local',
    );
    expect(() => chooseTarget({ local: true, context: 'prod' }, emptyHome)).toThrow(UserError);
  });

  it('a missing --kubeconfig file is invalid input (exit 1), not a switch to the local plane', () => {
    try {
      chooseTarget({ kubeconfig: join(dir, 'absent') }, emptyHome);
      throw new Error('expected a UserError');
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).exitCode).toBe(1);
    }
  });

  it('a kubeconfig without a current context: the local plane, saying why', () => {
    const file = kubeconfig('e');
    expect(chooseTarget({}, { ...emptyHome, KUBECONFIG: file })).toEqual({
      kind: 'local',
      why: `${file} sets no current context`,
    });
  });
});
