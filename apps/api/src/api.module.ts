import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApplicationsController } from './applications/applications.controller.js';
import { ApplicationsService } from './applications/applications.service.js';
import { PreviewService } from './applications/preview.service.js';
import { StandaloneController } from './applications/standalone.controller.js';
import { ApplicationStore, ComponentStore, TraitStore } from './applications/stores.js';
import { WatchController } from './applications/watch.controller.js';
import { AuthGuard } from './auth/auth.guard.js';
import { AUTHENTICATOR } from './auth/authenticator.js';
import { KubernetesAuthenticator } from './auth/kubernetes.authenticator.js';
import { TokensAuthenticator } from './auth/tokens.authenticator.js';
import { loadTokensFile } from './auth/tokens-file.js';
import { CatalogController } from './catalog/catalog.controller.js';
import { CatalogService } from './catalog/catalog.service.js';
import { DocsController } from './docs/docs.controller.js';
import { ServiceController } from './http/service.controller.js';
import { ClusterService } from './kube/cluster.service.js';
import { API_OPTIONS, type ResolvedApiOptions } from './options.js';

/** The REST API as a NestJS module; the route table (http/routes.ts) says what each controller serves. */
@Module({})
export class ApiModule {
  static register(options: ResolvedApiOptions): DynamicModule {
    return {
      module: ApiModule,
      // WatchController first: `/applications/watch` must not be taken for an application's name.
      controllers: [
        ServiceController,
        DocsController,
        CatalogController,
        WatchController,
        ApplicationsController,
        StandaloneController,
      ],
      providers: [
        { provide: API_OPTIONS, useValue: options },
        ClusterService,
        CatalogService,
        PreviewService,
        ApplicationStore,
        ComponentStore,
        TraitStore,
        ApplicationsService,
        {
          provide: AUTHENTICATOR,
          inject: [ClusterService],
          useFactory: (cluster: ClusterService) =>
            options.auth === 'kubernetes'
              ? new KubernetesAuthenticator(cluster.manager.transport)
              : new TokensAuthenticator(loadTokensFile(options.tokensFile!)),
        },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }
}
