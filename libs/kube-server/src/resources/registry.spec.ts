import type { ResourceInfo } from './builtin.js';
import { Registry } from './registry.js';

const widget = (version: string): ResourceInfo => ({
  group: 'example.com',
  version,
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  verbs: ['get', 'list'],
  crd: 'widgets.example.com',
});

describe('Registry', () => {
  it('finds built-ins by path, kind and storage key; a shared store by its own version only by path', () => {
    const r = new Registry();
    expect(r.find('apps', 'v1', 'deployments')?.kind).toBe('Deployment');
    expect(r.findKind('apps', 'Deployment')?.version).toBe('v1');
    expect(r.byStorageKey('apps/deployments')?.plural).toBe('deployments');
    // events.k8s.io/v1 Events live in the core Events' store: found by path, not as the stored kind.
    const events = r.find('events.k8s.io', 'v1', 'events');
    expect(events?.storage).toEqual({ group: '', plural: 'events' });
    expect(r.findKind('events.k8s.io', 'Event')).toBeUndefined();
    expect(r.byStorageKey('/events')?.group).toBe('');
  });

  it('serves what a CRD adds from the next lookup on, and stops when it goes', () => {
    const r = new Registry();
    expect(r.find('example.com', 'v1', 'widgets')).toBeUndefined();
    r.setCrd('widgets.example.com', [widget('v1'), widget('v1beta1')]);
    expect(r.find('example.com', 'v1beta1', 'widgets')?.version).toBe('v1beta1');
    expect(r.findKind('example.com', 'Widget')?.version).toBe('v1'); // the first listed
    expect(r.all().filter((x) => x.crd)).toHaveLength(2);
    r.setCrd('widgets.example.com', []);
    expect(r.find('example.com', 'v1', 'widgets')).toBeUndefined();
    expect(r.findKind('example.com', 'Widget')).toBeUndefined();
  });
});
