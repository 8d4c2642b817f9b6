/** The pod IPs in use on the simulated node, handed out like a kind node's pod CIDR. */
/** The pod IPs in use on the node (10.244.0.0/16, like a kind node's pod CIDR). */
export class PodIps {
  private readonly used = new Set<string>();
  private next = 2;

  reserve(ip: unknown): void {
    if (typeof ip === 'string') this.used.add(ip);
  }

  release(ip: unknown): void {
    if (typeof ip === 'string') this.used.delete(ip);
  }

  allocate(): string {
    for (let i = 0; i < 65_534; i++) {
      const n = this.next;
      this.next = n >= 65_534 ? 2 : n + 1;
      const ip = `10.244.${n >> 8}.${n & 255}`;
      if ((n & 255) === 0 || (n & 255) === 255 || this.used.has(ip)) continue;
      this.used.add(ip);
      return ip;
    }
    throw new Error('simulated node: pod IP range 10.244.0.0/16 exhausted');
  }
}
