import { Controller, Param, Query } from '@nestjs/common';
import { Route } from '../http/route.decorator.js';
import type { CatalogDetail, CatalogEntry } from './catalog.dto.js';
import { CatalogService } from './catalog.service.js';

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

@Controller()
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Route('listComponentTypes')
  async components(
    @Query('namespace') ns: unknown,
    @Query('q') q: unknown,
  ): Promise<{ items: CatalogEntry[] }> {
    return { items: await this.catalog.list('component', str(ns), str(q)) };
  }

  @Route('getComponentType')
  component(@Param('name') name: string, @Query('namespace') ns: unknown): Promise<CatalogDetail> {
    return this.catalog.detail('component', name, str(ns));
  }

  @Route('listTraitTypes')
  async traits(
    @Query('namespace') ns: unknown,
    @Query('q') q: unknown,
    @Query('component') component: unknown,
  ): Promise<{ items: CatalogEntry[] }> {
    return { items: await this.catalog.list('trait', str(ns), str(q), str(component)) };
  }

  @Route('getTraitType')
  trait(@Param('name') name: string, @Query('namespace') ns: unknown): Promise<CatalogDetail> {
    return this.catalog.detail('trait', name, str(ns));
  }
}
