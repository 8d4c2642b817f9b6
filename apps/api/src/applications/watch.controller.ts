import { Controller, Param, Req, Res } from '@nestjs/common';
import type { HttpRequest as Request, HttpResponse as Response } from '../http/express-types.js';
import { APPLICATIONS } from '#api';
import type { KubeObject } from '#kube-core';
import { Route } from '../http/route.decorator.js';
import { ClusterService } from '../kube/cluster.service.js';
import { applicationView } from './application-view.js';
import { ApplicationsService } from './applications.service.js';

/** A comment line now and then keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Live status as Server-Sent Events, fed by the Applications informer (no
 * request to the API server per client): every matching application as
 * ADDED first, then each change. A GET, so a streaming `fetch` sends the
 * Authorization header (browsers' EventSource cannot; tokens never go in URLs).
 * Registered before ApplicationsController so `/applications/watch` is not taken for a name.
 */
@Controller()
export class WatchController {
  constructor(
    private readonly cluster: ClusterService,
    private readonly apps: ApplicationsService,
  ) {}

  @Route('watchApplications')
  watchAll(@Param('namespace') ns: string, @Req() req: Request, @Res() res: Response): void {
    this.apps.requireNamespace(ns);
    this.stream(req, res, (o) => o.metadata?.namespace === ns);
  }

  @Route('watchApplication')
  watchOne(
    @Param('namespace') ns: string,
    @Param('name') name: string,
    @Req() req: Request,
    @Res() res: Response,
  ): void {
    this.apps.get(ns, name);
    this.stream(req, res, (o) => o.metadata?.namespace === ns && o.metadata?.name === name);
  }

  private stream(req: Request, res: Response, matches: (o: KubeObject) => boolean): void {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const send = (type: 'ADDED' | 'MODIFIED' | 'DELETED', o: KubeObject) => {
      if (!matches(o)) return;
      const data = JSON.stringify({ type, application: applicationView(o) });
      res.write(`event: ${type}\nid: ${o.metadata?.resourceVersion ?? ''}\ndata: ${data}\n\n`);
    };
    // The handler's onAdd replays what the cache holds, so a client sees the current state first.
    const registration = this.cluster.informer(APPLICATIONS).addEventHandler({
      onAdd: (o) => send('ADDED', o),
      onUpdate: (old, o) => {
        if (old.metadata?.resourceVersion !== o.metadata?.resourceVersion) send('MODIFIED', o);
      },
      onDelete: (o) => send('DELETED', o),
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const close = () => {
      clearInterval(heartbeat);
      registration.remove();
    };
    req.on('close', close);
    res.on('error', close);
  }
}
