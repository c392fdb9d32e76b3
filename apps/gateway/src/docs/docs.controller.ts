import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { API_VERSION, buildOpenApiDocument } from '@dex/messages';
import { ApiError } from '../http/api-error';

/** Swagger UI's files served under `/docs/`, read once from the swagger-ui-dist package (no network needed). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>DEX API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css" />
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, tryItOutEnabled: true, displayRequestDuration: true });
  </script>
</body>
</html>
`;

/** `GET /openapi.json` (the OpenAPI 3.1 document, generated from the validating schemas) and `GET /docs`. */
@Controller()
export class DocsController {
  private readonly document = buildOpenApiDocument({ version: API_VERSION });
  private readonly assetDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  private readonly assets = new Map<string, Buffer>();

  @Get('openapi.json')
  openapi() {
    return this.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Get('docs/:file')
  @Header('cache-control', 'public, max-age=86400')
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const type = ASSETS[file];
    if (type === undefined) throw new ApiError(404, `Not found: GET /docs/${file}`);
    let body = this.assets.get(file);
    if (body === undefined) {
      body = readFileSync(join(this.assetDir, file));
      this.assets.set(file, body);
    }
    void reply.type(type);
    return body;
  }
}
