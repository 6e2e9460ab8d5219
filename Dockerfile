# syntax=docker/dockerfile:1
# SheetAPI's images (README.md, Deploy). Targets:
#   web    (default) the standalone server, `node server.js` as PID 1 under tini, non-root,
#          with a HEALTHCHECK on /health/live: no build step, no devDependencies, no sources.
#   tools  the sources with their dependencies, for the release step (`npm run db:migrate`),
#          the worker (`node --import tsx lib/cli/worker.ts`) and, for staging, the emulators.
# This repository's CI has no container engine: it runs the same standalone server
# (.ci/production-drill.sh) instead of this image.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

FROM deps AS build
ENV NEXT_TELEMETRY_DISABLED=1
COPY . .
# `next build` then the static assets and public/ copied beside server.js (lib/cli/standalone.mjs).
RUN npm run build

FROM ${NODE_IMAGE} AS base
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
WORKDIR /app
# tini is PID 1: it forwards SIGTERM to node (which drains, writes its batches and exits) and
# reaps zombies. Never `npm start` or `npm run` as the command: npm exits on SIGTERM and leaves
# its child running.
ENTRYPOINT ["/usr/bin/tini", "--"]

FROM base AS tools
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node . .
USER node
CMD ["node", "--import", "tsx", "lib/cli/worker.ts"]

FROM base AS web
COPY --from=build --chown=node:node /app/.next/standalone ./
USER node
# The standalone server listens on PORT and HOSTNAME (a container's HOSTNAME is its id otherwise).
ENV PORT=3000 HOSTNAME=0.0.0.0
EXPOSE 3000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
