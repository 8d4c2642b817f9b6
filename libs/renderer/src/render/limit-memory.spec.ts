import { FakeClock } from '#kube-core';
import { RenderError } from '../errors.js';
import { LimitMemory } from './limit-memory.js';

describe('LimitMemory', () => {
  const errors = [new RenderError('ComponentDefinition "bomb": cpu time limit 5s exceeded', {}, 'timeout')];

  it('answers for 1 min, then 2, 4, 8, and never more than 10 min', async () => {
    const clock = new FakeClock();
    const memory = new LimitMemory({ clock });
    const backoffs: number[] = [];
    for (let i = 0; i < 6; i++) {
      memory.remember('k', errors);
      let ms = 0;
      while (memory.recall('k')) {
        await clock.advance(1000);
        ms += 1000;
      }
      backoffs.push(ms / 60_000);
    }
    expect(backoffs).toEqual([1, 2, 4, 8, 10, 10]);
  });

  it('forgets an input evaluated within its limits, and one quiet for longer than the longest backoff', async () => {
    const clock = new FakeClock();
    const memory = new LimitMemory({ clock });
    memory.remember('a', errors);
    memory.forget('a');
    expect(memory.recall('a')).toBeUndefined();
    memory.remember('b', errors);
    expect(memory.recall('b')).toBe(errors);
    await clock.advance(60_000 + 600_001);
    expect(memory.recall('other')).toBeUndefined();
    expect(memory.size).toBe(0);
  });
});
