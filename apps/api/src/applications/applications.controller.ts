import { Body, Controller, Param, Req } from '@nestjs/common';
import { requestSignal } from '../http/middleware.js';
import type { KubeObject } from '#kube-core';
import { Route } from '../http/route.decorator.js';
import { ApplicationsService } from './applications.service.js';
import { applicationView } from './application-view.js';
import { ApplicationStore } from './stores.js';

/** Applications of one namespace: CRUD, preview, status, live objects, events, revisions, rollback. */
@Controller()
export class ApplicationsController {
  constructor(
    private readonly apps: ApplicationsService,
    private readonly store: ApplicationStore,
  ) {}

  @Route('listApplications')
  list(@Param('namespace') ns: string) {
    return { items: this.apps.list(ns) };
  }

  @Route('createApplication')
  create(@Param('namespace') ns: string, @Body() body: unknown): Promise<KubeObject> {
    return this.store.create(ns, body);
  }

  @Route('previewNew')
  previewNew(@Param('namespace') ns: string, @Body() body: unknown, @Req() req: object) {
    return this.apps.previewNew(ns, body, requestSignal(req));
  }

  @Route('getApplication')
  get(@Param('namespace') ns: string, @Param('name') name: string): KubeObject {
    return this.apps.get(ns, name);
  }

  @Route('replaceApplication')
  replace(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.store.replace(ns, name, body);
  }

  @Route('patchApplication')
  patch(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.store.patch(ns, name, body);
  }

  @Route('deleteApplication')
  delete(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.store.delete(ns, name);
  }

  @Route('applicationStatus')
  status(@Param('namespace') ns: string, @Param('name') name: string) {
    return applicationView(this.apps.get(ns, name));
  }

  @Route('applicationResources')
  resources(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.apps.resources(ns, name);
  }

  @Route('applicationEvents')
  events(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.apps.events(ns, name);
  }

  @Route('previewApplication')
  preview(
    @Param('namespace') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() req: object,
  ) {
    return this.apps.previewStored(ns, name, body, requestSignal(req));
  }

  @Route('listRevisions')
  revisions(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.apps.revisions(ns, name);
  }

  @Route('rollback')
  rollback(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.apps.rollback(ns, name, body);
  }
}
