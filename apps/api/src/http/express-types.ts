import type { IncomingMessage, ServerResponse } from 'node:http';

/** The parts of Express' request and response the API uses (Express' own types are not installed). */
export type HttpRequest = IncomingMessage & {
  params: Record<string, string>;
  query: Record<string, unknown>;
  path: string;
  originalUrl: string;
  body?: unknown;
  /** Set by Express once a route matched: its path pattern. */
  route?: { path?: string };
};

export type HttpResponse = ServerResponse & {
  status(code: number): HttpResponse;
  type(contentType: string): HttpResponse;
  send(body: string | Buffer): HttpResponse;
};
