import { eventually } from '#kube-core';
import { RenderError } from '../../errors.js';
import { createHandlebarsEngine } from './index.js';
import { request } from './testing.js';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../../../../../test/support/build.js';

// Templates render in worker threads that run the compiled engine (see handlebars.worker.mjs).
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

const DEF = 'TraitDefinition "loops"';
const nested = (depth: number) =>
  `output:\n  apiVersion: v1\n  kind: ConfigMap\n  data:\n    x: "${'{{#each @root.parameter.items}}'.repeat(depth)}.${'{{/each}}'.repeat(depth)}"\n`;

async function failure(promise: Promise<unknown>): Promise<RenderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RenderError)) throw new Error(`expected a RenderError, got ${String(err)}`);
  return err;
}

describe('Handlebars engine: limits', () => {
  const items = Array.from({ length: 200 }, (_, i) => i);

  it('stops nested loops at the deadline with a timeout error naming the definition', async () => {
    const engine = createHandlebarsEngine({ timeoutMs: 100, maxOutputBytes: 1e12 });
    // 200^4 = 1.6e9 iterations: hours if nothing stopped it (Jest's time limit would fail the test).
    const err = await failure(engine.compile(DEF, { template: nested(4) }).evaluate(request({ items })));
    expect(err.source).toBe('timeout');
    expect(err.message).toBe(
      'TraitDefinition "loops": the template did not finish within 100 ms (nested loops over large lists?)',
    );
  });

  it('stops a render whose output outgrows the budget', async () => {
    const engine = createHandlebarsEngine({ timeoutMs: 60_000, maxOutputBytes: 100_000 });
    const err = await failure(engine.compile(DEF, { template: nested(3) }).evaluate(request({ items })));
    expect(err.source).toBe('timeout');
    expect(err.message).toBe(
      'TraitDefinition "loops": the template produced more than 100000 bytes of output (nested loops over large lists?)',
    );
  });

  it('counts what nested loops produce once, not once per level', async () => {
    // 10 x 10 x 10 dots = 1000 bytes of loop output; counted per level it would be 1110.
    const engine = createHandlebarsEngine({ timeoutMs: 5000, maxOutputBytes: 1050 });
    const ten = Array.from({ length: 10 }, (_, i) => i);
    const result = await engine.compile(DEF, { template: nested(3) }).evaluate(request({ items: ten }));
    expect((result.output!.data as { x: string }).x).toHaveLength(1000);
  });

  it('counts inserted values against the budget', async () => {
    const engine = createHandlebarsEngine({ timeoutMs: 5000, maxOutputBytes: 1000 });
    const template = 'output:\n  apiVersion: v1\n  kind: ConfigMap\n  data:\n    x: {{parameter.big}}\n';
    const err = await failure(engine.compile(DEF, { template }).evaluate(request({ big: 'x'.repeat(2000) })));
    expect(err.message).toContain('more than 1000 bytes');
  });

  it('renders normally within the limits, and keeps working after a template hit one', async () => {
    const engine = createHandlebarsEngine({ timeoutMs: 50, maxOutputBytes: 1e12 });
    await failure(engine.compile(DEF, { template: nested(4) }).evaluate(request({ items })));
    const result = await engine.compile(DEF, { template: nested(2) }).evaluate(request({ items: [1, 2, 3] }));
    expect((result.output!.data as { x: string }).x).toBe('.........');
  });
});

describe('Handlebars engine: off the main thread', () => {
  it('keeps the event loop turning while a template loops', async () => {
    const engine = createHandlebarsEngine({ timeoutMs: 60_000, maxOutputBytes: 1e12, poolSize: 1 });
    try {
      const items = Array.from({ length: 300 }, (_, i) => i);
      const running = engine
        .compile(DEF, { template: nested(4) })
        .evaluate(request({ items }))
        .catch((e: unknown) => e);
      await eventually(() => engine.stats.busy === 1, 'the render runs in a worker');
      // On the main thread this timer could not fire until the render ended (minutes).
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(engine.stats.busy).toBe(1);
      await engine.close();
      expect(String(await running)).toMatch(/closed/);
    } finally {
      await engine.close();
    }
  });
});

describe('Handlebars engine: memory cap', () => {
  it('ends a render that outgrows its heap, and a new worker takes the next one', async () => {
    const engine = createHandlebarsEngine({
      timeoutMs: 600_000,
      maxOutputBytes: 1e12,
      memoryLimitBytes: 32 * 2 ** 20,
      poolSize: 1,
    });
    try {
      const items = Array.from({ length: 300 }, (_, i) => i);
      // 300^4 pieces of output kept until the end: far more than 32 MiB of heap.
      const err = await failure(engine.compile(DEF, { template: nested(4) }).evaluate(request({ items })));
      expect(err.source).toBe('timeout');
      expect(err.message).toBe('TraitDefinition "loops": memory limit 32Mi exceeded');
      expect(engine.stats.replaced).toBe(1);
      const result = await engine.compile(DEF, { template: nested(1) }).evaluate(request({ items: [1] }));
      expect((result.output!.data as { x: string }).x).toBe('.');
    } finally {
      await engine.close();
    }
  });
});
