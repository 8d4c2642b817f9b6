import { parseSources } from '../parse/index.js';
import { typesUsed } from './types-used.js';

describe('typesUsed', () => {
  it('lists the component and trait types of Applications, Components and Traits, each once', () => {
    const { objects, errors } = parseSources([
      {
        path: 'app.yaml',
        text: [
          'apiVersion: core.oam.dev/v1beta1',
          'kind: Application',
          'metadata: {name: shop}',
          'spec:',
          '  components:',
          '    - {name: api, type: webservice, traits: [{type: hpa}, {type: gateway}]}',
          '    - {name: db, componentRef: db}',
          '---',
          'apiVersion: core.oam.dev/v1beta1',
          'kind: Component',
          'metadata: {name: db}',
          'spec: {type: statefulset}',
          '---',
          'apiVersion: core.oam.dev/v1beta1',
          'kind: Trait',
          'metadata: {name: scale-db}',
          'spec: {type: hpa, target: {component: db}}',
        ].join('\n'),
      },
    ]);
    expect(errors).toEqual([]);
    expect(typesUsed(objects)).toEqual({
      components: ['webservice', 'statefulset'],
      traits: ['hpa', 'gateway'],
    });
  });
});
