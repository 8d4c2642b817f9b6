// A lint of the Dockerfile, which cannot be built here (no Docker engine): its stages and paths
// must match the package layout, so the image cannot rot silently when the layout moves.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';

const root = projectRoot();
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Instruction {
  op: string;
  args: string;
  line: number;
}
interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Stages and their instructions (comments dropped, `\` continuations joined). */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    let body = lines[i].trim();
    if (!body || body.startsWith('#')) continue;
    while (body.endsWith('\\') && i + 1 < lines.length) body = `${body.slice(0, -1)} ${lines[++i].trim()}`;
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(body)!;
    if (op.toUpperCase() === 'FROM') {
      const [from, , name] = args.split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args, line });
  }
  return stages;
}

/** COPY's sources and destination; `from` is the stage it copies from (absent: the build context). */
function copies(stage: Stage): { sources: string[]; dest: string; from?: string; line: number }[] {
  return stage.instructions
    .filter((i) => i.op === 'COPY')
    .map((i) => {
      const words = i.args.split(/\s+/);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      return { sources: paths.slice(0, -1), dest: paths.at(-1)!, from, line: i.line };
    });
}

/** .dockerignore's verdict on a path (Docker's rules: the last matching pattern wins; a pattern matching a parent folder counts). */
function dockerignore(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const glob = (negate ? l.slice(1) : l).replace(/^\/+|\/+$/g, '');
      const source = glob
        .split(/(\*\*\/|\*\*|\*|\?)/)
        .map((part) =>
          part === '**/'
            ? '(?:.*/)?'
            : part === '**'
              ? '.*'
              : part === '*'
                ? '[^/]*'
                : part === '?'
                  ? '[^/]'
                  : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      return { negate, re: new RegExp(`^${source}$`) };
    });
  return (path) => {
    const parts = path.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const p of patterns) if (prefixes.some((x) => p.re.test(x))) excluded = !p.negate;
    return excluded;
  };
}

/** Files git tracks under `path` (a file or a folder). */
function tracked(path: string): string[] {
  const run = spawnSync('git', ['ls-files', '--', path], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ls-files ${path}: ${run.stderr}`);
  return run.stdout.split('\n').filter(Boolean);
}

const stages = parseDockerfile(read('Dockerfile'));
const build = stages[0];
const final = stages.at(-1)!;
const ignored = dockerignore(read('.dockerignore'));
const fromContext = stages.flatMap((s) => copies(s).filter((c) => !c.from));

describe('lint: Dockerfile', () => {
  it('is multi-stage: a Node build stage, then distroless Node of the same major as the engines field', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const engines = (JSON.parse(read('package.json')) as { engines?: { node?: string } }).engines?.node;
    const major = /(\d+)/.exec(engines ?? '')?.[1];
    expect(major).toBeDefined();
    expect(build.from).toMatch(new RegExp(`^node:${major}[.-]`));
    expect(final.from).toMatch(new RegExp(`^gcr\\.io/distroless/nodejs${major}-`));
    // Distroless has no shell: a RUN there could never work.
    expect(final.instructions.filter((i) => i.op === 'RUN')).toEqual([]);
    // What the final stage takes from another stage names one that exists.
    for (const c of copies(final).filter((x) => x.from))
      expect(stages.slice(0, -1).map((s) => s.name)).toContain(c.from);
  });

  it('runs as a non-root user, the one the Deployments and the restricted profile expect', () => {
    const users = final.instructions.filter((i) => i.op === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!;
    expect(user).toMatch(/^\d+$/); // runAsNonRoot can only check a numeric user
    expect(Number(user)).toBeGreaterThan(0);
    const deployments = [read('deploy/controller/deployment.yaml'), read('deploy/api/deployment.yaml')]
      .flatMap((t) => parseAllDocuments(t).map((d) => d.toJS()))
      .filter((o) => o?.kind === 'Deployment');
    for (const d of deployments) expect(d.spec.template.spec.securityContext.runAsUser).toBe(Number(user));
  });

  it('copies only what exists and what .dockerignore lets into the build context', () => {
    expect(fromContext.length).toBeGreaterThan(3);
    for (const c of fromContext)
      for (const source of c.sources) {
        expect({ source, exists: existsSync(join(root, source)) }).toEqual({ source, exists: true });
        const files = tracked(source).filter((f) => !f.endsWith('.spec.ts'));
        expect({ source, tracked: files.length > 0 }).toEqual({ source, tracked: true });
        expect({ source, ignored: files.filter(ignored) }).toEqual({ source, ignored: [] });
      }
    // The matcher itself: it keeps out what the allow-list does not name, and the tests.
    expect(ignored('test/lint/dockerfile.spec.ts')).toBe(true);
    expect(ignored('apps/cli/src/main.spec.ts')).toBe(true);
    expect(ignored('node_modules/yaml/package.json')).toBe(true);
  });

  it('compiles every folder tsconfig.build.json includes, with both tsconfigs', () => {
    const config = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    const copied = copies(build)
      .filter((c) => !c.from)
      .flatMap((c) => c.sources);
    expect(copied).toEqual(
      expect.arrayContaining([...config.include, 'tsconfig.json', 'tsconfig.build.json']),
    );
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'package-lock.json']));
    expect(build.instructions.some((i) => i.op === 'RUN' && /npm run build/.test(i.args))).toBe(true);
  });

  it('ships what `oam` reads at run time: package.json (#imports), dist, production node_modules, bin, definitions, deploy, the CUE evaluator', () => {
    const dests = new Map(copies(final).flatMap((c) => c.sources.map((s) => [s, c] as const)));
    for (const from of ['/src/package.json', '/src/node_modules', '/src/dist'])
      expect({ from, stage: dests.get(from)?.from }).toEqual({ from, stage: build.name });
    for (const path of ['bin', 'definitions', 'deploy', 'libs/renderer/cue-wasm/dist'])
      expect({ path, copied: dests.get(path)?.dest }).toEqual({ path, copied: path });
    // #imports resolve inside dist/, which the final stage has.
    const imports = (JSON.parse(read('package.json')) as { imports: Record<string, { default: string }> })
      .imports;
    for (const [name, target] of Object.entries(imports))
      expect({ name, target: target.default }).toEqual({
        name,
        target: expect.stringMatching(/^\.\/dist\//),
      });
    // The CUE evaluator's files, found by wasm-runtime.mjs at run time.
    for (const f of ['cue.wasm.gz', 'wasm_exec.js'])
      expect(existsSync(join(root, 'libs/renderer/cue-wasm/dist', f))).toBe(true);
  });

  it('starts bin/oam.js (the compiled CLI it loads is built from apps/cli) and is the image deploy/ names', () => {
    const entrypoint = final.instructions.find((i) => i.op === 'ENTRYPOINT')!;
    const argv = JSON.parse(entrypoint.args) as string[];
    expect(argv).toEqual(['/nodejs/bin/node', '/app/bin/oam.js']);
    expect(final.instructions.find((i) => i.op === 'WORKDIR')?.args).toBe('/app');
    const shim = read('bin/oam.js');
    const entry = /new URL\('\.\.\/dist\/(.+)\.js'/.exec(shim)?.[1];
    expect(entry).toBeDefined();
    expect(existsSync(join(root, `${entry}.ts`))).toBe(true);
    const k = parseAllDocuments(read('deploy/kustomization.yaml'))[0].toJS() as {
      images: { newName: string; newTag: string }[];
    };
    const image = `${k.images[0].newName}:${k.images[0].newTag}`;
    expect(read('Dockerfile')).toContain(`docker build -t ${image} .`);
  });
});
