import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Param, Res } from '@nestjs/common';
import type { HttpResponse as Response } from '../http/express-types.js';
import { ApiProblem } from '../http/problem.js';
import { Route } from '../http/route.decorator.js';
import { DOCS_PATH, OPENAPI_PATH } from '../http/routes.js';

/** The files of swagger-ui-dist the page loads; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>OAM platform REST API</title>
    <link rel="stylesheet" type="text/css" href="${DOCS_PATH}/swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="${DOCS_PATH}/index.css" />
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${DOCS_PATH}/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="${DOCS_PATH}/swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

// A file rather than an inline script, so the page runs under a CSP without 'unsafe-inline' scripts.
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

// Swagger UI sets inline styles and loads its images as data: URLs; everything else comes from here.
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'";

/** Swagger UI for the OpenAPI document, from the installed swagger-ui-dist (no CDN). Open, like the document. */
@Controller()
export class DocsController {
  private readonly dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  private readonly files = new Map<string, Buffer>();

  @Route('docs')
  page(@Res() res: Response): void {
    send(res, 'text/html; charset=utf-8', Buffer.from(PAGE), 'no-cache');
  }

  @Route('docsAsset')
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (file === 'swagger-initializer.js')
      return send(res, ASSETS['swagger-ui-bundle.js'], Buffer.from(INITIALIZER), 'no-cache');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new ApiProblem(404, `no file "${file}" in the API documentation`);
    let body = this.files.get(file);
    if (!body) this.files.set(file, (body = readFileSync(join(this.dir, file))));
    send(res, type, body, 'public, max-age=3600');
  }
}

function send(res: Response, type: string, body: Buffer, cache: string): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cache);
  res.status(200).type(type).send(body);
}
