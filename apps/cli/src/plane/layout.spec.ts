import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../output/user-error.js';
import { cliVersion } from '../version.js';
import { ensureLayout, LAYOUT, layoutFile } from './layout.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'oam-layout-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const stamped = () =>
  JSON.parse(readFileSync(layoutFile(home), 'utf8')) as { layout: number; writtenBy: string };
/** Every file under home with its content, to show nothing else was touched. */
function snapshot(dir = home): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path.slice(home.length)] = readFileSync(path, 'utf8');
    }
  return out;
}

function refusal(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    return err as UserError;
  }
  throw new Error('expected a refusal');
}

describe("$OAM_HOME's layout", () => {
  it('a new (or missing) home is stamped with this layout, silently', () => {
    expect(ensureLayout(home)).toEqual([]);
    expect(stamped()).toEqual({ layout: LAYOUT, writtenBy: expect.any(String) });
    const nested = join(home, 'not', 'yet');
    expect(ensureLayout(nested)).toEqual([]);
    expect(JSON.parse(readFileSync(layoutFile(nested), 'utf8')).layout).toBe(LAYOUT);
    expect(ensureLayout(home)).toEqual([]); // idempotent
  });

  it('a home an older oam wrote (no layout.json) is migrated in place, says so, and keeps everything', () => {
    mkdirSync(join(home, 'server'));
    writeFileSync(join(home, 'server', 'state.db'), 'objects');
    writeFileSync(join(home, 'api-tokens.yaml'), 'tokens');
    const before = snapshot();
    expect(ensureLayout(home)).toEqual([
      `migrated ${home} from state layout 0 (an older oam) to ${LAYOUT}; everything in it was kept`,
    ]);
    expect(stamped().layout).toBe(LAYOUT);
    const after = snapshot();
    delete after['/layout.json'];
    expect(after).toEqual(before);
    expect(ensureLayout(home)).toEqual([]);
  });

  it('a home a newer oam wrote is refused (exit 3), naming that version, and left as it was', () => {
    writeFileSync(layoutFile(home), JSON.stringify({ layout: LAYOUT + 1, writtenBy: '9.0.0' }));
    writeFileSync(join(home, 'plane.json'), '{}');
    const before = snapshot();
    const err = refusal(() => ensureLayout(home));
    expect(err).toBeInstanceOf(UserError);
    expect(err.exitCode).toBe(3);
    expect(err.message).toBe(
      `${home} was written by oam 9.0.0 (state layout ${LAYOUT + 1}); this is oam ${cliVersion()}, which knows layout ${LAYOUT} and older: run that newer oam, or set OAM_HOME to another directory (nothing in ${home} was changed)`,
    );
    expect(snapshot()).toEqual(before);
  });

  it.each([
    ['not JSON', '{layout: 2'],
    ['no layout number', '{"layout": "one"}'],
    ['a negative layout', '{"layout": -1}'],
  ])('an unreadable layout.json (%s) is refused (exit 3) and left as it was', (_what, text) => {
    writeFileSync(layoutFile(home), text);
    const err = refusal(() => ensureLayout(home));
    expect(err.exitCode).toBe(3);
    expect(err.message).toMatch(
      new RegExp(`^cannot tell which oam wrote ${home}: ${layoutFile(home)} is unreadable \\(.+\\); fix it`),
    );
    expect(err.message).toContain('(nothing was changed)');
    expect(readFileSync(layoutFile(home), 'utf8')).toBe(text);
  });
});
