import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpResponse } from '../http/express-types.js';
import type { Middleware } from '../http/middleware.js';

/** Where the web catalog is served; `/` redirects here. */
export const WEB_PATH = '/ui/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

// The page talks only to this origin and evaluates no strings as code (its form validator interprets
// JSON Schema; see apps/web/src/parts/form-validator.ts); style-src 'unsafe-inline': React's style attributes.
const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** The package's dist/web (what `npm run build` writes), from this file in apps/ or dist/apps/. */
export function defaultWebDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}

/**
 * Serves the built web catalog (apps/web) as static files under /ui/, without
 * a token: it holds no data, and it asks for the token itself. Every API call
 * it makes goes through the guard like any other client's.
 */
export function webPage(dir: string): Middleware {
  const root = normalize(dir) + sep;
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' || req.path === WEB_PATH.slice(0, -1)) {
      res.statusCode = 302;
      res.setHeader('Location', WEB_PATH);
      return void res.end();
    }
    if (!req.path.startsWith(WEB_PATH)) return next();
    let rel: string;
    try {
      rel = decodeURIComponent(req.path.slice(WEB_PATH.length)) || 'index.html';
    } catch {
      return text(res, 404, 'not found\n');
    }
    const file = normalize(join(root, rel));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      if (rel === 'index.html')
        return text(res, 503, 'The web page is not built: run `npm run build` (it writes dist/web).\n');
      return text(res, 404, 'not found\n');
    }
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    // Vite names assets by content hash; index.html must be read again to find new ones.
    res.setHeader(
      'Cache-Control',
      rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  };
}

function text(res: HttpResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(body);
}
