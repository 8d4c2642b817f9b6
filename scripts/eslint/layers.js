// The monorepo's layers: which lib and app may import which, the one table of them.
// scripts/eslint/boundaries.js enforces it for '#alias' imports and for relative paths alike.
//
// kube-core is at the bottom and imports nothing; a lib imports only libs below it, never an
// app; an app imports libs, and no other app. The one exception is the CLI: the `oam` binary
// hosts the controller and the REST API (`oam controller`, `oam api`, `oam server`), so it may
// import their entry points (never their files).
//
// Tests (spec and e2e files, a unit's test/ folder) may also import any lib, as a fixture: a
// lib's tests run it against a real neighbour (the runtime's against the embedded API server,
// the renderer's against the built-in definitions). They import no app they could not otherwise.
//
// A new lib or app gets a row here, or lint refuses every import it makes.

const KUBE_CORE = 'libs/kube-core';
const API = 'libs/api';
const RUNTIME = 'libs/runtime';
const RENDERER = 'libs/renderer';
const DEFINITIONS = 'libs/definitions';
const KUBE_SERVER = 'libs/kube-server';
const SIMULATOR = 'libs/simulator';

/** unit → the units it may import (besides itself). */
export const LAYERS = {
  [KUBE_CORE]: [],
  [API]: [KUBE_CORE],
  [RUNTIME]: [KUBE_CORE],
  [RENDERER]: [KUBE_CORE, API],
  [DEFINITIONS]: [KUBE_CORE, API, RENDERER],
  [KUBE_SERVER]: [KUBE_CORE, RUNTIME],
  // The workload simulator runs inside the server as a registered controller (its in-process API,
  // informers over its store): it imports the server; the server never imports it.
  [SIMULATOR]: [KUBE_CORE, RUNTIME, KUBE_SERVER],
  'apps/controller': [KUBE_CORE, API, RUNTIME, RENDERER, DEFINITIONS],
  'apps/api': [KUBE_CORE, API, RUNTIME, RENDERER],
  'apps/cli': [
    KUBE_CORE,
    API,
    RUNTIME,
    RENDERER,
    DEFINITIONS,
    KUBE_SERVER,
    SIMULATOR,
    'apps/controller',
    'apps/api',
  ],
  // The web page talks to the REST API over HTTP only: its types come from the OpenAPI document.
  'apps/web': [],
};

/** Whether a file is test code, which may also import any lib (see above). */
export function isTest(relativePath) {
  return /\.(spec|e2e)\.tsx?$/.test(relativePath) || /^(libs|apps)\/[^/]+\/test\//.test(relativePath);
}
