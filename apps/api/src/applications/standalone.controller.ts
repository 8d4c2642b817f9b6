import { Body, Controller, Injectable, Param } from '@nestjs/common';
import { Route } from '../http/route.decorator.js';
import { ClusterService } from '../kube/cluster.service.js';
import { ObjectStore } from './object-store.js';
import { PreviewService } from './preview.service.js';

/** The developer's standalone Components and the operator's Traits, with the Applications' CRUD semantics. */
@Injectable()
export class StandaloneStores {
  readonly components: ObjectStore;
  readonly traits: ObjectStore;

  constructor(cluster: ClusterService, preview: PreviewService) {
    this.components = new ObjectStore(cluster, preview, 'Component');
    this.traits = new ObjectStore(cluster, preview, 'Trait');
  }
}

@Controller()
export class StandaloneController {
  constructor(private readonly stores: StandaloneStores) {}

  @Route('listComponents')
  listComponents(@Param('namespace') ns: string) {
    return { items: this.stores.components.list(ns) };
  }

  @Route('createComponent')
  createComponent(@Param('namespace') ns: string, @Body() body: unknown) {
    return this.stores.components.create(ns, body);
  }

  @Route('getComponent')
  getComponent(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.stores.components.get(ns, name);
  }

  @Route('replaceComponent')
  replaceComponent(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.stores.components.replace(ns, name, body);
  }

  @Route('patchComponent')
  patchComponent(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.stores.components.patch(ns, name, body);
  }

  @Route('deleteComponent')
  deleteComponent(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.stores.components.delete(ns, name);
  }

  @Route('listTraits')
  listTraits(@Param('namespace') ns: string) {
    return { items: this.stores.traits.list(ns) };
  }

  @Route('createTrait')
  createTrait(@Param('namespace') ns: string, @Body() body: unknown) {
    return this.stores.traits.create(ns, body);
  }

  @Route('getTrait')
  getTrait(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.stores.traits.get(ns, name);
  }

  @Route('replaceTrait')
  replaceTrait(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.stores.traits.replace(ns, name, body);
  }

  @Route('patchTrait')
  patchTrait(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.stores.traits.patch(ns, name, body);
  }

  @Route('deleteTrait')
  deleteTrait(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.stores.traits.delete(ns, name);
  }
}
