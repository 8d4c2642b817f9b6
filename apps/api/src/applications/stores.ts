import { Injectable } from '@nestjs/common';
import { ClusterService } from '../kube/cluster.service.js';
import { ObjectStore } from './object-store.js';
import { PreviewService } from './preview.service.js';

/* One provider per kind the REST API writes, so controllers and services inject the one they use by its type. */

@Injectable()
export class ApplicationStore extends ObjectStore {
  constructor(cluster: ClusterService, preview: PreviewService) {
    super(cluster, preview, 'Application');
  }
}

@Injectable()
export class ComponentStore extends ObjectStore {
  constructor(cluster: ClusterService, preview: PreviewService) {
    super(cluster, preview, 'Component');
  }
}

@Injectable()
export class TraitStore extends ObjectStore {
  constructor(cluster: ClusterService, preview: PreviewService) {
    super(cluster, preview, 'Trait');
  }
}
