import { Module, type DynamicModule } from '@nestjs/common';
import { ControllerRunner } from './controller.runner.js';
import { ManagerService } from './manager.service.js';
import { CONTROLLER_OPTIONS, resolveOptions, type ControllerOptions } from './options.js';
import { RendererService } from './renderer.service.js';

/** The OAM controller as a NestJS module: the Manager, the renderer and the runner that wires them. */
@Module({})
export class ControllerModule {
  static register(options: ControllerOptions): DynamicModule {
    return {
      module: ControllerModule,
      providers: [
        { provide: CONTROLLER_OPTIONS, useValue: resolveOptions(options) },
        ManagerService,
        RendererService,
        ControllerRunner,
      ],
      exports: [ManagerService, ControllerRunner],
    };
  }
}
