import type { KubeObject } from '#kube-core';
import { rollbackRequest } from './rollback-request.js';

const app = (value?: string): KubeObject => ({
  metadata: {
    name: 'shop',
    annotations: value === undefined ? {} : { 'app.oam.dev/rollback-to-revision': value },
  },
});

describe('rollbackRequest', () => {
  it('reads N, vN and <app>-vN', () => {
    expect(rollbackRequest(app('3'))).toBe(3);
    expect(rollbackRequest(app('v3'))).toBe(3);
    expect(rollbackRequest(app(' shop-v12 '))).toBe(12);
  });

  it('is undefined without the annotation and NaN for anything else', () => {
    expect(rollbackRequest(app())).toBeUndefined();
    expect(rollbackRequest(app('latest'))).toBeNaN();
    expect(rollbackRequest(app('0'))).toBeNaN();
    expect(rollbackRequest(app('other-v3'))).toBeNaN();
  });
});
