import type { Clock } from '#kube-core';
import type { ServerResponse } from 'node:http';
import { tooLargeResourceVersion } from '../../objects/reader.js';
import type { Store } from '../../store/store.js';
import { untilCommitted } from '../watch-freshness.js';

/**
 * A get or list at least as fresh as a resourceVersion the store has not committed waits for
 * it, as kube-apiserver's watch cache does (up to 3 s), then is 504 Timeout "Too large resource
 * version". Exact lists, continued lists and unreadable versions are the reader's to answer.
 */
export async function untilReadable(
  store: Store,
  clock: Clock,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  const text = query.get('resourceVersion') ?? '';
  if (!/^\d+$/.test(text) || query.get('continue') || query.get('resourceVersionMatch') === 'Exact') return;
  const rv = Number(text);
  if (rv <= store.committedRv()) return;
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.on('close', onClose);
  const fresh = await untilCommitted(store, rv, clock, gone.signal);
  res.off('close', onClose);
  if (!fresh) throw tooLargeResourceVersion(rv, store.committedRv());
}
