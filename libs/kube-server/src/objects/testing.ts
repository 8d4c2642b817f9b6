/** For specs: an ObjectService on its own store in a fresh temporary folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../core.js';
import { CrdManager } from '../resources/crds.js';
import { Registry } from '../resources/registry.js';
import { Store } from '../store/store.js';
import { ObjectService } from './service.js';

/**
 * An ObjectService whose logged errors throw (a spec must not pass over one); `close()` waits
 * for its controllers, closes the store and removes the folder.
 */
export function tempObjectService(prefix: string): { objects: ObjectService; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const registry = new Registry();
  const log = (e: Record<string, unknown>) => {
    if (e.level === 'error') throw new Error(JSON.stringify(e));
  };
  const crds = new CrdManager(registry, log);
  const store = new Store(join(dir, 'db'), 1000);
  const core: Core = { store, registry, crds, log };
  crds.attach(store);
  const objects = new ObjectService(core);
  return {
    objects,
    async close() {
      await objects.controllers.idle();
      objects.core.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
