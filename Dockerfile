# syntax=docker/dockerfile:1
# The OAM controller's image (deploy/controller/deployment.yaml runs `oam controller --leader-elect`).
#   docker build -t ghcr.io/oam-platform/oam:0.1.0 .
# Stage 1 compiles the TypeScript and keeps only production dependencies; stage 2 is
# distroless Node (no shell, no package manager) running as the non-root user 65532.

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are here; better-sqlite3's
# native binding is fetched explicitly below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps apps
COPY libs libs
COPY bench bench
COPY scripts scripts
RUN npm run build \
 && npm rebuild better-sqlite3 \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf dist/bench dist/scripts dist/.tsbuildinfo \
 && node scripts/slim-node-modules.mjs node_modules

FROM gcr.io/distroless/nodejs20-debian12:nonroot
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/dist dist
COPY bin bin
# The built-in definitions the controller installs, the CUE evaluator, the manifests `oam install` applies.
COPY definitions definitions
COPY libs/renderer/cue-wasm/dist libs/renderer/cue-wasm/dist
COPY deploy deploy
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/nodejs/bin/node", "/app/bin/oam.js"]
CMD ["controller", "--leader-elect", "--metrics-port=8080", "--metrics-host=0.0.0.0"]
