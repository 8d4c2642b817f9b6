import { mkdtempSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { UserError } from '../output/user-error.js';
import { readInputs } from './read-inputs.js';

const folder = () => mkdtempSync(join(tmpdir(), 'oam-read-'));

async function failure(p: Promise<unknown>): Promise<UserError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('readInputs', () => {
  it('reads a folder recursively, in order', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'b.yaml'), 'b: 1\n');
    writeFileSync(join(dir, 'a.yml'), 'a: 1\n');
    writeFileSync(join(dir, 'notes.txt'), 'skipped');
    const files = await readInputs([dir]);
    expect(files.map((f) => f.text)).toEqual(['a: 1\n', 'b: 1\n']);
  });

  it('turns a broken symbolic link in a folder into a user error naming it', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'app.yaml'), 'a: 1\n');
    symlinkSync(join(dir, 'missing.yaml'), join(dir, 'broken.yaml'));
    const err = await failure(readInputs([dir]));
    expect(err.message).toBe(`${join(dir, 'broken.yaml')}: no such file (a broken symbolic link?)`);
  });

  it('refuses a file over the limit without reading it', async () => {
    const dir = folder();
    const path = join(dir, 'huge.yaml');
    // A sparse 3 GiB file: reading it would take seconds and fail past 2 GiB.
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 3 * 1024 ** 3);
    closeSync(fd);
    // Had it read the file, it would fail past 2 GiB with another message (or run out of memory).
    const err = await failure(readInputs([path]));
    expect(err.message).toBe(`${path}: file is 3072.0 MiB, over the limit of 3.0 MiB`);
  });

  it('stops reading stdin at the limit', async () => {
    let chunks = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          chunks++;
          yield Buffer.alloc(256, 'a');
        }
      })(),
    );
    const err = await failure(readInputs(['-'], endless, { maxBytes: 1024 }));
    expect(err.message).toBe('<stdin>: input is over the limit of 1 KiB');
    expect(chunks).toBeLessThan(10);
  });

  it('reads stdin within the limit', async () => {
    const files = await readInputs(['-'], Readable.from(['a: 1\n', 'b: 2\n']));
    expect(files).toEqual([{ path: '<stdin>', text: 'a: 1\nb: 2\n' }]);
  });
});
