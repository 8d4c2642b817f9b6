import type { KubeObject } from '#kube-core';
import type { Client, RestMapper } from '#runtime';
import { isUnreadable } from '../errors.js';

/** A live object from the informer cache, or that it could not be read (its kind not served, the API unavailable). */
export interface LiveRead {
  object?: KubeObject;
  failed?: true;
}

/** Reads the live objects of rendered or recorded ones from the informer caches. */
export class LiveObjects {
  constructor(private readonly deps: { client: Client; mapper: RestMapper }) {}

  /** The cached live object, if any; `failed` when it cannot be read now (health then says it does not exist yet). */
  async read(obj: KubeObject): Promise<LiveRead> {
    try {
      const kind = await this.deps.mapper.kindFor(obj);
      const object = await this.deps.client.get(
        kind,
        kind.namespaced ? obj.metadata?.namespace : undefined,
        obj.metadata!.name!,
      );
      return { object };
    } catch (err) {
      if (!isUnreadable(err)) throw err;
      return { failed: true };
    }
  }

  async get(obj: KubeObject): Promise<KubeObject | undefined> {
    return (await this.read(obj)).object;
  }
}
