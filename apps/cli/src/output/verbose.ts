import type { HttpEvent } from '#runtime';

/** `-v/--verbose`: HTTP details and stack traces, on stderr; never shown otherwise. */
let verbose = false;

export function setVerbose(on: boolean): void {
  verbose = on;
}

export function isVerbose(): boolean {
  return verbose;
}

/** What a KubeTransport tells of each request, with -v: `http: GET <url> 200 in 12 ms`; undefined without. */
export function httpTrace(
  write: (line: string) => void = (l) => process.stderr.write(l),
): ((event: HttpEvent) => void) | undefined {
  if (!verbose) return undefined;
  return (e) =>
    write(
      e.status === 0
        ? `http: ${e.method} ${e.url} no answer after ${Math.round(e.durationMs)} ms (${e.error ?? 'unknown'})\n`
        : `http: ${e.method} ${e.url} ${e.status} in ${Math.round(e.durationMs)} ms\n`,
    );
}
