import { Body, Controller, Param } from '@nestjs/common';
import { Route } from '../http/route.decorator.js';
import { ComponentStore, TraitStore } from './stores.js';

/** The developer's standalone Components and the operator's Traits, with the Applications' CRUD semantics. */
@Controller()
export class StandaloneController {
  constructor(
    private readonly components: ComponentStore,
    private readonly traits: TraitStore,
  ) {}

  @Route('listComponents')
  listComponents(@Param('namespace') ns: string) {
    return { items: this.components.list(ns) };
  }

  @Route('createComponent')
  createComponent(@Param('namespace') ns: string, @Body() body: unknown) {
    return this.components.create(ns, body);
  }

  @Route('getComponent')
  getComponent(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.components.get(ns, name);
  }

  @Route('replaceComponent')
  replaceComponent(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.components.replace(ns, name, body);
  }

  @Route('patchComponent')
  patchComponent(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.components.patch(ns, name, body);
  }

  @Route('deleteComponent')
  deleteComponent(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.components.delete(ns, name);
  }

  @Route('listTraits')
  listTraits(@Param('namespace') ns: string) {
    return { items: this.traits.list(ns) };
  }

  @Route('createTrait')
  createTrait(@Param('namespace') ns: string, @Body() body: unknown) {
    return this.traits.create(ns, body);
  }

  @Route('getTrait')
  getTrait(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.traits.get(ns, name);
  }

  @Route('replaceTrait')
  replaceTrait(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.traits.replace(ns, name, body);
  }

  @Route('patchTrait')
  patchTrait(@Param('namespace') ns: string, @Param('name') name: string, @Body() body: unknown) {
    return this.traits.patch(ns, name, body);
  }

  @Route('deleteTrait')
  deleteTrait(@Param('namespace') ns: string, @Param('name') name: string) {
    return this.traits.delete(ns, name);
  }
}
