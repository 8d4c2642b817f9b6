import type http from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { eventually, FakeClock } from '#kube-core';
import { sendJson, startHttpStub, type HttpStub } from '../../test/http-stub.js';
import { isNotFound, KubeApiError } from './api-error.js';
import { KubeTransport, type HttpEvent } from './transport.js';

let stub: HttpStub;
/** Set per test: how the stub answers. */
let answer: Parameters<typeof startHttpStub>[0];

beforeAll(async () => {
  stub = await startHttpStub((req, res, body) => answer(req, res, body));
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
});

const transportWith = (options: ConstructorParameters<typeof KubeTransport>[1] = {}) =>
  new KubeTransport(stub.kubeConfig, { registry: new Registry(), qps: 1000, burst: 1000, ...options });

describe('KubeTransport', () => {
  it('authenticates from the kubeconfig, parses JSON and counts requests per verb and code', async () => {
    answer = (_req, res) => sendJson(res, 200, { kind: 'ConfigMap', metadata: { name: 'a' } });
    const t = transportWith({ userAgent: 'unit-test' });
    try {
      const got = await t.request<{ metadata: { name: string } }>({
        verb: 'get',
        method: 'GET',
        path: '/api/v1/namespaces/ns/configmaps/a',
        query: { x: 1, skip: undefined },
      });
      expect(got.metadata.name).toBe('a');
      const req = stub.requests[0];
      expect(req.headers.authorization).toBe('Bearer stub-token');
      expect(req.headers['user-agent']).toBe('unit-test');
      expect(req.url.search).toBe('?x=1');
      const metrics = await t.registry.metrics();
      expect(metrics).toMatch(/rest_client_requests_total\{verb="get",code="200"\} 1/);
      expect(metrics).toMatch(/rest_client_request_duration_seconds_count\{verb="get"\} 1/);
    } finally {
      t.close();
    }
  });

  it('asks an authenticator for credentials on every request (it may refresh its token)', async () => {
    answer = (_req, res) => sendJson(res, 200, {});
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(stub.kubeConfig.exportConfig());
    let issued = 0;
    kubeConfig.addAuthenticator({
      isAuthProvider: () => true,
      applyAuthentication: async (_user, opts) => {
        opts.headers = { ...opts.headers, 'X-Token-Number': String(++issued) };
      },
    });
    const t = new KubeTransport(kubeConfig, { registry: new Registry(), qps: 1000, burst: 1000 });
    try {
      for (let i = 0; i < 2; i++) await t.request({ verb: 'get', method: 'GET', path: '/api/v1/namespaces' });
      expect(stub.requests.map((r) => r.headers['x-token-number'])).toEqual(['1', '2']);
    } finally {
      t.close();
    }
  });

  it('turns an error answer into a KubeApiError carrying the Status', async () => {
    answer = (_req, res) =>
      sendJson(res, 404, {
        kind: 'Status',
        code: 404,
        reason: 'NotFound',
        message: 'configmaps "a" not found',
      });
    const t = transportWith();
    try {
      const err = await t
        .request({ verb: 'get', method: 'GET', path: '/api/v1/namespaces/ns/configmaps/a' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KubeApiError);
      expect(isNotFound(err)).toBe(true);
      expect((err as KubeApiError).message).toBe(
        'GET /api/v1/namespaces/ns/configmaps/a: 404 NotFound: configmaps "a" not found',
      );
      expect(await t.registry.metrics()).toMatch(/rest_client_requests_total\{verb="get",code="404"\} 1/);
    } finally {
      t.close();
    }
  });

  it('paces requests with the client-side token bucket (qps/burst) and records the wait', async () => {
    const clock = new FakeClock(0);
    let step = 0; // how many times the test has advanced the transport's clock
    const arrivals: number[] = []; // the step at which each request reached the server
    answer = (_req, res) => {
      arrivals.push(step);
      sendJson(res, 200, {});
    };
    const t = transportWith({ qps: 20, burst: 2, clock });
    try {
      const all = Promise.all(
        Array.from({ length: 6 }, () =>
          t.request({ verb: 'list', method: 'GET', path: '/api/v1/configmaps' }),
        ),
      );
      await eventually(() => arrivals.length === 2, 'the burst', 10_000);
      // 2 at once, then one token every 50 ms (20 qps): each 50 ms step releases exactly one more.
      for (let n = 3; n <= 6; n++) {
        step++;
        await clock.advance(50);
        await eventually(() => arrivals.length === n, `request ${n}`, 10_000);
      }
      await all;
      expect(arrivals).toEqual([0, 0, 1, 2, 3, 4]);
      expect(await t.registry.metrics()).toMatch(
        /rest_client_rate_limiter_duration_seconds_count\{verb="list"\} 6/,
      );
    } finally {
      t.close();
    }
  });

  it('gives up on a request that gets no answer within its timeout', async () => {
    answer = () => undefined; // never answers
    const clock = new FakeClock(0);
    const t = transportWith({ timeoutMs: 5000, clock });
    try {
      let settled = false;
      const failed = t
        .request({ verb: 'get', method: 'GET', path: '/slow', timeoutMs: 100 })
        .catch((e: unknown) => e)
        .finally(() => (settled = true));
      await eventually(() => stub.requests.length === 1, 'the request to reach the server', 10_000);
      await clock.advance(99);
      expect(settled).toBe(false); // the request's own 100 ms, not the transport's 5 s, on the transport's clock
      await clock.advance(1);
      const err = (await failed) as KubeApiError;
      expect(err).toMatchObject({ code: 0, reason: 'Timeout' });
      expect(err.message).toMatch(/no answer within 100 ms/);
      expect(await t.registry.metrics()).toMatch(/rest_client_requests_total\{verb="get",code="0"\} 1/);
      const aborted = new AbortController();
      const pending = t
        .request({ verb: 'get', method: 'GET', path: '/slow', signal: aborted.signal })
        .catch((e: unknown) => e);
      await eventually(() => stub.requests.length === 2, 'the second request to reach the server', 10_000);
      aborted.abort();
      expect(await pending).toMatchObject({ code: 0, reason: 'Aborted' });
    } finally {
      t.close();
    }
  });

  it('tells onResponse of each request: method, URL, status and duration; status 0 with the reason when unanswered', async () => {
    const clock = new FakeClock(0);
    const events: HttpEvent[] = [];
    const t = transportWith({ clock, onResponse: (e) => events.push(e) });
    try {
      answer = (_req, res) => sendJson(res, 404, { kind: 'Status', code: 404, reason: 'NotFound' });
      await t
        .request({ verb: 'get', method: 'GET', path: '/api/v1/namespaces/ns/configmaps/a', query: { x: 1 } })
        .catch(() => undefined);
      const server = stub.kubeConfig.getCurrentCluster()!.server.replace(/\/$/, '');
      expect(events).toEqual([
        { method: 'GET', url: `${server}/api/v1/namespaces/ns/configmaps/a?x=1`, status: 404, durationMs: 0 },
      ]);

      answer = () => undefined; // never answers
      const failed = t
        .request({ verb: 'create', method: 'POST', path: '/slow', body: {}, timeoutMs: 100 })
        .catch(() => undefined);
      await eventually(() => stub.requests.length === 2, 'the request to reach the server', 10_000);
      await clock.advance(100);
      await failed;
      expect(events[1]).toEqual({
        method: 'POST',
        url: `${server}/slow`,
        status: 0,
        durationMs: 100,
        error: expect.stringMatching(/no answer within 100 ms/),
      });
    } finally {
      t.close();
    }
  });

  it('streams line by line across chunk boundaries; the request timeout covers connecting, not the stream', async () => {
    let response: http.ServerResponse | undefined;
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"n":1}\n{"n"');
      response = res;
    };
    const clock = new FakeClock(0);
    const t = transportWith({ clock });
    try {
      const lines: string[] = [];
      const ending = t.stream(
        { verb: 'watch', method: 'GET', path: '/w', timeoutMs: 30, idleTimeoutMs: 1000 },
        (l) => lines.push(l),
      );
      await eventually(() => lines.length === 1, 'the first line', 10_000);
      await clock.advance(60); // twice the request timeout: the open stream is not cut
      response!.write(':2}\n');
      await eventually(() => lines.length === 2, 'the line split across chunks', 10_000);
      await clock.advance(60);
      response!.end('{"n":3}');
      expect(await ending).toEqual({ reason: 'closed' });
      expect(lines).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    } finally {
      t.close();
    }
  });

  it('declares a stream that goes silent dead after its idle timeout (no silent stalls)', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"BOOKMARK"}\n'); // then nothing, and the connection stays open
    };
    const clock = new FakeClock(0);
    const t = transportWith({ clock });
    try {
      const lines: string[] = [];
      let ended = false;
      const ending = t
        .stream({ verb: 'watch', method: 'GET', path: '/w', idleTimeoutMs: 150 }, (l) => lines.push(l))
        .finally(() => (ended = true));
      await eventually(() => lines.length === 1, 'the bookmark', 10_000);
      await clock.advance(149);
      expect(ended).toBe(false);
      await clock.advance(1);
      expect(await ending).toEqual({ reason: 'idle' });
      expect(lines).toHaveLength(1);
    } finally {
      t.close();
    }
  });

  it('rejects a stream the server refuses, and ends one whose consumer throws as broken', async () => {
    answer = (_req, res) =>
      sendJson(res, 410, {
        kind: 'Status',
        code: 410,
        reason: 'Expired',
        message: 'too old resource version',
      });
    const t = transportWith();
    try {
      await expect(
        t.stream({ verb: 'watch', method: 'GET', path: '/w', idleTimeoutMs: 1000 }, () => undefined),
      ).rejects.toMatchObject({ code: 410, reason: 'Expired' });
      answer = (_req, res) => {
        res.writeHead(200);
        res.write('line\n');
      };
      const end = await t.stream({ verb: 'watch', method: 'GET', path: '/w', idleTimeoutMs: 1000 }, () => {
        throw new Error('cannot handle');
      });
      expect(end).toMatchObject({ reason: 'broken', error: { message: 'cannot handle' } });
    } finally {
      t.close();
    }
  });
});
