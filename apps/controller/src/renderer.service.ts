import { Injectable } from '@nestjs/common';
import { createRenderer, type RendererHandle } from '#renderer';

/** One renderer (CUE workers, template and render caches) for every reconcile; closed by the runner last. */
@Injectable()
export class RendererService {
  readonly handle: RendererHandle = createRenderer();
}
