import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { z } from 'zod';

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;

const TokenEntrySchema = z.object({
  token: z.string().min(16, 'a token needs at least 16 characters'),
  name: z.string().optional().describe('shown in access logs instead of the token'),
  namespaces: z.array(z.string().min(1)).min(1),
  verbs: z.array(z.enum([...VERBS, '*'])).min(1),
});
export type TokenEntry = z.infer<typeof TokenEntrySchema>;
const TokensFileSchema = z.array(TokenEntrySchema);

/** The tokens file could not be used; the message names the file and the field. */
export class TokensFileError extends Error {}

/** Reads `--tokens-file`: a YAML list of `{token, name?, namespaces: [..]|["*"], verbs: [..]|["*"]}`. */
export function loadTokensFile(file: string): TokenEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new TokensFileError(`${file}: cannot read the tokens file: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new TokensFileError(`${file}: not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = TokensFileSchema.safeParse(data ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new TokensFileError(`${file}: ${path.replace(/^\./, '') || '(top level)'}: ${issue.message}`);
  }
  if (parsed.data.length === 0)
    throw new TokensFileError(`${file}: no tokens: every request would be refused`);
  return parsed.data;
}

/**
 * The local plane's tokens file: created on first start with one
 * full-access token, mode 0600; kept as it is afterwards (a person may have
 * added tokens). Returns the token a person signs in with.
 */
export function ensureLocalTokensFile(file: string): string {
  if (existsSync(file)) return loadTokensFile(file)[0].token;
  const token = randomBytes(32).toString('base64url');
  const entries: TokenEntry[] = [{ token, name: 'local-admin', namespaces: ['*'], verbs: ['*'] }];
  writeFileSync(
    file,
    `# Bearer tokens of the OAM REST API (oam api --auth tokens). Keep this file private.\n${stringify(entries)}`,
    { mode: 0o600, flag: 'wx' },
  );
  return token;
}
