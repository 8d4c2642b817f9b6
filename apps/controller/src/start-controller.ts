import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { APPLICATIONS } from '#api';
import type { RendererHandle } from '#renderer';
import { kindId, type Manager } from '#runtime';
import { ControllerModule } from './controller.module.js';
import { ControllerRunner } from './controller.runner.js';
import { ManagerService } from './manager.service.js';
import { RendererService } from './renderer.service.js';
import type { ControllerOptions } from './options.js';

export interface RunningController {
  manager: Manager;
  /** Enqueues every Application in scope, as a resync would. */
  resync(): void;
  /** The template worker pools now (a runaway shows as busy), as the REST API's `evaluations()`. */
  evaluations(): RendererHandle['stats'];
  /** Resolves when the manager stopped on its own (lost leadership) or after stop(). */
  done: Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Starts the controller in this process (the CLI's `oam controller`, the
 * local plane, tests): resolves once caches are synced and it reconciles.
 */
export async function startController(options: ControllerOptions): Promise<RunningController> {
  const app = await NestFactory.createApplicationContext(ControllerModule.register(options), {
    logger: false,
    abortOnError: false,
  });
  try {
    await app.init();
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  const { manager } = app.get(ManagerService);
  const runner = app.get(ControllerRunner);
  let stopping: Promise<void> | undefined;
  return {
    manager,
    done: manager.done,
    resync: () => {
      const apps = manager.informers.list().find((i) => i.name === kindId(APPLICATIONS));
      for (const a of apps?.indexer.list() ?? [])
        runner.controller?.enqueue({ namespace: a.metadata!.namespace!, name: a.metadata!.name! });
    },
    evaluations: () => app.get(RendererService).handle.stats,
    stop: () => (stopping ??= app.close()),
  };
}
