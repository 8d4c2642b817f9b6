import { RenderError } from '../../errors.js';
import { createCueEngine, type CueEngine } from './index.js';
import { renderContext } from './testdata/fixtures.js';

// A comprehension over fifty million items: CUE would allocate for about 15 s, then die of out-of-memory.
const NEVER_ENDS = `import "list"
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: {for i in list.Range(0, 50000000, 1) {"k\\(i)": "v"}}
}
`;

const QUICK = `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name}\n`;

describe('CUE engine: time limit', () => {
  let engine: CueEngine;
  beforeAll(async () => {
    engine = createCueEngine({ timeoutMs: 1500, poolSize: 1 });
    // Warm the worker so the measurement below times the evaluation, not the start-up.
    await engine
      .compile('ComponentDefinition "quick"', QUICK)
      .evaluate({ parameter: {}, context: renderContext() });
  });
  afterAll(() => engine.close());

  it('stops a template that never terminates with a timeout error naming the definition', async () => {
    const started = Date.now();
    const err = await engine
      .compile('ComponentDefinition "forever"', NEVER_ENDS)
      .evaluate({ parameter: {}, context: renderContext() })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).source).toBe('timeout');
    expect((err as RenderError).detail).toBe(
      'ComponentDefinition "forever": evaluation did not finish within 1500 ms (the template may never terminate)',
    );
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(3000);
  });

  it('keeps working afterwards, on a fresh worker', async () => {
    const result = await engine
      .compile('ComponentDefinition "quick"', QUICK)
      .evaluate({ parameter: {}, context: renderContext({ name: 'after' }) });
    expect(result.output!.metadata).toEqual({ name: 'after' });
  });
});
