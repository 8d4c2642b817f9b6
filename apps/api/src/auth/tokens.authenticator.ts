import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccessRequest, Authenticator, Principal } from './authenticator.js';
import type { TokenEntry } from './tokens-file.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `--auth tokens`: each token of the file may use its verbs in its namespaces. */
export class TokensAuthenticator implements Authenticator {
  private readonly entries: { digest: Buffer; entry: TokenEntry; principal: Principal }[];

  constructor(entries: readonly TokenEntry[]) {
    this.entries = entries.map((entry, i) => {
      const d = digest(entry.token);
      const name = entry.name ?? `token[${i}]`;
      return { digest: d, entry, principal: { name, groups: [], id: `tokens:${i}` } };
    });
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    const d = digest(token);
    // Compare digests of equal length in constant time; check every entry so timing says nothing of which.
    let found: Principal | undefined;
    for (const e of this.entries) if (timingSafeEqual(e.digest, d)) found ??= e.principal;
    return found;
  }

  async authorize(principal: Principal, access: AccessRequest): Promise<boolean> {
    const entry = this.entries.find((e) => e.principal.id === principal.id)?.entry;
    if (!entry) return false;
    const verbOk = entry.verbs.includes('*') || entry.verbs.includes(access.verb);
    const nsOk =
      access.namespace === undefined ||
      entry.namespaces.includes('*') ||
      entry.namespaces.includes(access.namespace);
    return verbOk && nsOk;
  }
}
