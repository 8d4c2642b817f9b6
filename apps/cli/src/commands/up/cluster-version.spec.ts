import { KubeConfig } from '@kubernetes/client-node';
import { KubeTransport } from '#runtime';
import { Session } from '../../cluster/session.js';
import { prepare } from './prepare.js';
import { withClusterDefinitions } from './up.action.js';

/**
 * `oam up` and `oam diff` render before connecting (bad input fails without a cluster), for
 * the fixed default version; once connected they render for the target's `/version`, as the
 * controller will. No request is made here: the session's version is what `connect` read.
 */
const FILES = [
  {
    path: 'app.yaml',
    text: `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: versioned, namespace: default}
spec:
  workload: {definition: {apiVersion: v1, kind: ConfigMap}}
  schematic:
    cue:
      template: |
        output: {
          apiVersion: "v1"
          kind: "ConfigMap"
          data: minor: "\\(context.clusterVersion.minor)"
        }
        parameter: {}
---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: app, namespace: default}
spec:
  components: [{name: cm, type: versioned}]
`,
  },
];
const OPTIONS = { defaultNamespace: 'default', strict: false };

function sessionAt(version?: { major: string; minor: string }): Session {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const session = new Session(new KubeTransport(kc), 'cluster', 'cluster "x"', 'https://127.0.0.1:1');
  if (version) session.version = { ...version, gitVersion: `v${version.major}.${version.minor}.3` };
  return session;
}

function minorOf(prepared: Awaited<ReturnType<typeof prepare>>): unknown {
  expect(prepared.errors).toEqual([]);
  return (prepared.rendered[0].objects[0].object as { data?: { minor?: string } }).data?.minor;
}

describe('oam up / oam diff render for the target cluster version', () => {
  it('renders again for a target whose minor version differs from the default', async () => {
    const offline = await prepare(FILES, OPTIONS);
    expect(minorOf(offline)).toBe('37');
    const session = sessionAt({ major: '1', minor: '29' });
    try {
      expect(minorOf(await withClusterDefinitions(session, FILES, OPTIONS, offline))).toBe('29');
    } finally {
      session.close();
    }
  });

  it('keeps the offline render when the target runs the default minor version', async () => {
    const offline = await prepare(FILES, OPTIONS);
    const session = sessionAt({ major: '1', minor: '37' });
    try {
      expect(await withClusterDefinitions(session, FILES, OPTIONS, offline)).toBe(offline);
    } finally {
      session.close();
    }
  });
});
