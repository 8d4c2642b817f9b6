import { FakeClock } from '#kube-core';
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
  // The limit runs on a fake clock: the test decides when 1500 ms have passed, however busy the machine.
  const clock = new FakeClock();
  beforeAll(async () => {
    engine = createCueEngine({ timeoutMs: 1500, poolSize: 1, clock });
    // Warm the worker so the limit below is armed as soon as the evaluation starts.
    await engine
      .compile('ComponentDefinition "quick"', QUICK)
      .evaluate({ parameter: {}, context: renderContext() });
  });
  afterAll(() => engine.close());

  it('stops a template that never terminates with a timeout error naming the definition', async () => {
    let settled = false;
    const outcome = engine
      .compile('ComponentDefinition "forever"', NEVER_ENDS)
      .evaluate({ parameter: {}, context: renderContext() })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
      .finally(() => (settled = true));
    await clock.waitForTimers(1);
    await clock.advance(1499);
    expect(settled).toBe(false);
    await clock.advance(1);
    const err = await outcome;
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).source).toBe('timeout');
    expect((err as RenderError).detail).toBe(
      'ComponentDefinition "forever": evaluation did not finish within 1500 ms (the template may never terminate)',
    );
  });

  it('keeps working afterwards, on a fresh worker', async () => {
    const result = await engine
      .compile('ComponentDefinition "quick"', QUICK)
      .evaluate({ parameter: {}, context: renderContext({ name: 'after' }) });
    expect(result.output!.metadata).toEqual({ name: 'after' });
  });
});
