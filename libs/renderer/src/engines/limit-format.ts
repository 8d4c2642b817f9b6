/** Limits as users write them in flags: `5s`, `500ms`, `1m30s`; `512Mi`, `1Gi`. */

export function formatDuration(ms: number): string {
  if (ms < 1000 || ms % 1000 !== 0) return `${ms}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
}

const BINARY = [
  ['Gi', 1024 ** 3],
  ['Mi', 1024 ** 2],
  ['Ki', 1024],
] as const;

export function formatBytes(bytes: number): string {
  for (const [unit, size] of BINARY) if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  return String(bytes);
}
