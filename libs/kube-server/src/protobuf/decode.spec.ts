import { decodeKubeProtobuf, messageType } from './decode.js';

/** A minimal protobuf writer, enough to build the bodies client-go sends. */
const varint = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const bytesField = (field: number, bytes: number[]) => [
  ...varint((field << 3) | 2),
  ...varint(bytes.length),
  ...bytes,
];
const str = (field: number, text: string) => bytesField(field, [...Buffer.from(text)]);
const num = (field: number, n: number) => [...varint(field << 3), ...varint(n)];
const entry = (field: number, key: string, value: string) =>
  bytesField(field, [...str(1, key), ...str(2, value)]);
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  Uint8Array.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytesField(1, [...str(1, apiVersion), ...str(2, kind)]),
    ...bytesField(2, raw),
  ]);

describe('kube protobuf bodies', () => {
  it('decodes a ConfigMap the way kubectl create sends it', () => {
    const meta = [
      ...str(1, 'c1'),
      ...str(2, ''),
      ...str(3, 'demo'),
      ...num(7, 0),
      ...entry(11, 'app', 'web'),
    ];
    const body = envelope('v1', 'ConfigMap', [
      ...bytesField(1, meta),
      ...entry(2, 'a', 'b'),
      ...entry(2, 'c', ''),
    ]);
    expect(decodeKubeProtobuf(body)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c1', namespace: 'demo', labels: { app: 'web' } },
      data: { a: 'b', c: '' },
    });
  });

  it('keeps deliberate zeros of pointer fields and maps IntOrString and Time', () => {
    const port = [...num(1, 1), ...str(3, 'http')]; // IntOrString{type: String, strVal: http}
    const servicePort = [...num(3, 80), ...bytesField(4, port)];
    const spec = [...bytesField(1, servicePort)];
    const time = bytesField(8, [...num(1, 1_700_000_000)]);
    const svc = envelope('v1', 'Service', [
      ...bytesField(1, [...str(1, 's'), ...time]),
      ...bytesField(2, spec),
    ]);
    expect(decodeKubeProtobuf(svc)).toMatchObject({
      metadata: { name: 's', creationTimestamp: '2023-11-14T22:13:20Z' },
      spec: { ports: [{ port: 80, targetPort: 'http' }] },
    });
    const deploy = envelope('apps/v1', 'Deployment', [
      ...bytesField(1, str(1, 'd')),
      ...bytesField(2, num(1, 0)),
    ]);
    expect(decodeKubeProtobuf(deploy)).toMatchObject({ spec: { replicas: 0 } });
  });

  it('names the proto message of a kind and refuses bodies without the envelope', () => {
    expect(messageType('networking.k8s.io/v1', 'Ingress')).toBe('k8s.io.api.networking.v1.Ingress');
    expect(messageType('v1', 'Pod')).toBe('k8s.io.api.core.v1.Pod');
    expect(() => decodeKubeProtobuf(Uint8Array.from([1, 2, 3, 4]))).toThrow(
      expect.objectContaining({ code: 400 }),
    );
    expect(() => decodeKubeProtobuf(envelope('example.com/v1', 'Widget', []))).toThrow(
      expect.objectContaining({ code: 415 }),
    );
  });
});
