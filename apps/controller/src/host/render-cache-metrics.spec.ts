import { Registry } from 'prom-client';
import { FakeClock } from '#kube-core';
import { RenderCache } from '#renderer';
import { registerRenderCacheMetrics } from './render-cache-metrics.js';

const result = { outputs: {}, patchKeys: {}, output: { apiVersion: 'v1', kind: 'ConfigMap' } };

describe('render cache metrics', () => {
  it('report entries, hits, misses and idle expiry as the cache counts them, each once', async () => {
    const clock = new FakeClock();
    const cache = new RenderCache({ idleMs: 1000, clock });
    const registry = new Registry();
    registerRenderCacheMetrics(registry, cache);
    cache.get('a');
    cache.set('a', result);
    cache.get('a');
    cache.get('a');
    const first = await registry.metrics();
    expect(first).toContain('oam_render_cache_entries 1');
    expect(first).toContain('oam_render_cache_lookups_total{result="hit"} 2');
    expect(first).toContain('oam_render_cache_lookups_total{result="miss"} 1');
    await clock.advance(1000);
    const second = await registry.metrics();
    expect(second).toContain('oam_render_cache_entries 0');
    expect(second).toContain('oam_render_cache_expired_total 1');
    expect(second).toContain('oam_render_cache_lookups_total{result="hit"} 2'); // not counted again
  });
});
