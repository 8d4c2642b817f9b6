import { buildProgram } from '../../program.js';
import { complete, type NameKind } from './complete.js';
import { FILES_DIRECTIVE } from './scripts.js';

describe('oam __complete: candidates from the program itself, names from the target', () => {
  const asked: { kind: NameKind; flags: Record<string, string | boolean> }[] = [];
  const lookup = async (kind: NameKind, flags: Record<string, string | boolean>) => {
    asked.push({ kind, flags });
    return kind === 'applications'
      ? ['hello', 'shop']
      : kind === 'definitions'
        ? ['webservice', 'worker']
        : ['default'];
  };
  const run = (...words: string[]) => complete(buildProgram(), words, lookup);

  it('commands at the top, without hidden ones', async () => {
    const top = await run('');
    expect(top).toEqual(
      expect.arrayContaining([
        'up',
        'status',
        'diff',
        'history',
        'rollback',
        'def',
        'init',
        'completion',
        'version',
      ]),
    );
    expect(top).not.toContain('__complete');
    expect(await run('st')).toEqual(['status']);
  });

  it("a command's flags and the global ones", async () => {
    const flags = await run('up', '--');
    expect(flags).toEqual(
      expect.arrayContaining(['--file', '--namespace', '--timeout', '--verbose', '--help']),
    );
  });

  it('option values: choices, files, namespaces', async () => {
    expect(await run('status', 'x', '-o', '')).toEqual(['json', 'tree', 'yaml']);
    expect(await run('up', '-f', '')).toEqual([FILES_DIRECTIVE]);
    expect(await run('ls', '-n', '')).toEqual(['default']);
  });

  it('application names for NAME (with the -n given before), definition types for def show', async () => {
    asked.length = 0;
    expect(await run('status', '-n', 'shop', 'h')).toEqual(['hello']);
    expect(asked[0]).toEqual({ kind: 'applications', flags: { namespace: 'shop' } });
    expect(await run('def', 'show', 'w')).toEqual(['webservice', 'worker']);
    expect(await run('def', '')).toEqual(['apply', 'ls', 'show', 'vet']);
    expect(await run('completion', '')).toEqual(['bash', 'fish', 'zsh']);
  });
});
