import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { DEFAULT_YAML_LIMITS, type SourceFile } from '#renderer';
import { UserError } from '../output/user-error.js';

const YAML_EXTENSIONS = new Set(['.yaml', '.yml']);

export interface ReadOptions {
  /** Largest input accepted, in bytes: the parser's own limit, checked before anything is read. */
  maxBytes?: number;
}

/**
 * Expands `-f` arguments: a file, a folder (every .yaml/.yml inside,
 * recursively, in sorted order so output is stable), or `-` for stdin.
 * Anything unreadable (a broken symlink, a permission problem) or too big is
 * a user error naming the path; a file over the limit is never read.
 */
export async function readInputs(
  paths: readonly string[],
  stdin: NodeJS.ReadableStream = process.stdin,
  options: ReadOptions = {},
): Promise<SourceFile[]> {
  const maxBytes = options.maxBytes ?? DEFAULT_YAML_LIMITS.maxFileBytes;
  if (paths.length === 0) throw new UserError('no input: pass -f FILE, -f FOLDER or -f - (stdin)');
  const files: SourceFile[] = [];
  for (const path of paths) {
    if (path === '-') {
      files.push({ path: '<stdin>', text: await readStream(stdin, maxBytes) });
      continue;
    }
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UserError(`${path}: no such file or folder`);
    if (info.isDirectory()) {
      const found = await listYaml(path);
      if (found.length === 0) throw new UserError(`${path}: no .yaml or .yml files in this folder`);
      for (const file of found) files.push({ path: file, text: await readLimited(file, maxBytes) });
    } else {
      files.push({ path: displayPath(path), text: await readLimited(path, maxBytes) });
    }
  }
  return files;
}

async function listYaml(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    throw readError(dir, err);
  });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listYaml(full)));
    else if (YAML_EXTENSIONS.has(extname(e.name))) out.push(displayPath(full));
  }
  return out;
}

/** Stats first (following symlinks), so an oversized file is refused without being read. */
async function readLimited(path: string, maxBytes: number): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UserError(`${displayPath(path)}: not a regular file`);
    if (info.size > maxBytes) throw tooBig(displayPath(path), info.size, maxBytes);
    return await readFile(path, 'utf8');
  } catch (err) {
    throw readError(path, err);
  }
}

/** Reads stdin up to the limit and stops there: a huge or endless stream is refused, not buffered. */
async function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > maxBytes) throw tooBig('<stdin>', undefined, maxBytes);
      chunks.push(buffer);
    }
  } catch (err) {
    throw readError('<stdin>', err);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Worded like the parser's own size error. */
function tooBig(path: string, size: number | undefined, maxBytes: number): UserError {
  const what = size === undefined ? 'input is' : `file is ${formatBytes(size)},`;
  return new UserError(`${path}: ${what} over the limit of ${formatBytes(maxBytes)}`);
}

/** An I/O failure as the user should read it: the path and what went wrong, no stack trace. */
function readError(path: string, err: unknown): UserError {
  if (err instanceof UserError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file (a broken symbolic link?)'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a folder'
          : `cannot be read (${(err as Error).message ?? String(err)})`;
  return new UserError(`${displayPath(path)}: ${reason}`);
}

function displayPath(path: string): string {
  if (path === '<stdin>') return path;
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
