import type { Worker } from 'node:worker_threads';
import { renderContext } from '../testdata/fixtures.js';
import { createCue14Pool } from './cue14-pool.js';
import { builtinTemplate } from './testdata/templates.js';

// Its own file: which V8 compilers run WebAssembly is fixed per process by the first CUE worker.
describe('CUE v0.14 module in a long-running process', () => {
  it('tells its workers to let V8 optimise, and renders the same while the code is optimised', async () => {
    const ready: unknown[] = [];
    const pool = createCue14Pool({
      timeoutMs: 60_000,
      size: 1,
      longRunning: true,
      onWorker: (worker: Worker) =>
        worker.on('message', (m: { type?: string }) => m.type === 'ready' && ready.push(m)),
    });
    try {
      const webservice = builtinTemplate('components/webservice');
      const properties = { image: 'nginx:1.27', ports: [{ port: 80, expose: true }], cpu: '250m' };
      const first = await pool.render(webservice, properties, renderContext());
      expect(ready).toEqual([expect.objectContaining({ longRunning: true })]);
      // Enough renders for V8 to optimise the hottest functions while they run.
      for (let i = 0; i < 300; i++) {
        expect(await pool.render(webservice, properties, renderContext())).toEqual(first);
      }
    } finally {
      await pool.close();
    }
  });
});
