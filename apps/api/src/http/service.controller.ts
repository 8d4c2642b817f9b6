import { Controller, Res } from '@nestjs/common';
import type { HttpResponse as Response } from './express-types.js';
import { ClusterService } from '../kube/cluster.service.js';
import { openApiDocument } from '../openapi/openapi.document.js';
import { ApiProblem } from './problem.js';
import { Route } from './route.decorator.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

/** Health, readiness and the OpenAPI document: the only routes open without a token. */
@Controller()
export class ServiceController {
  private document?: Record<string, unknown>;

  constructor(private readonly cluster: ClusterService) {}

  @Route('healthz')
  healthz() {
    return { status: 'ok' };
  }

  @Route('readyz')
  readyz() {
    if (!this.cluster.isReady()) throw new ApiProblem(503, 'caches not synced yet');
    return { status: 'ready' };
  }

  @Route('openapi')
  openapi(@Res({ passthrough: true }) res: Response) {
    res.type('application/json');
    return (this.document ??= openApiDocument(VERSION));
  }

  @Route('metrics')
  async metrics(@Res({ passthrough: true }) res: Response): Promise<string> {
    const registry = this.cluster.manager.registry;
    res.type(registry.contentType);
    return registry.metrics();
  }

  @Route('openapiAlias')
  openapiAlias(@Res({ passthrough: true }) res: Response) {
    return this.openapi(res);
  }
}
