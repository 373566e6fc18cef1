# order-importer: one image for the watcher, workers and the sandbox (see docker-compose.yml).
# Two stages: the first builds (compilers, TypeScript, dev dependencies), the second runs with
# only what the built CLI reads: dist/, bin/, the production node_modules, samples/ (the default
# product catalogue), the dashboard's page files and package.json (how the code finds its root).

FROM node:22-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits the platform; the compilers
# stay in this stage.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY jobs ./jobs
COPY sandbox ./sandbox
COPY bench ./bench
COPY scripts ./scripts
COPY samples ./samples
# `npm ci` builds dist/ through `prepare`; the build is run again by name so that a failing
# build stops here whatever npm does with lifecycle scripts.
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
# Node carries its own time-zone data (full ICU): TZ (e.g. Europe/Brussels) sets the local time
# of the schedules (STATUS_SYNC_CRON, scheduled scans) without tzdata in the image.
ENV NODE_ENV=production DATA_DIR=/data TZ=UTC DASHBOARD_PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/samples ./samples
COPY --from=build /app/src/dashboard/assets ./src/dashboard/assets
COPY docker/healthcheck.js ./docker/healthcheck.js
RUN ln -s /app/bin/order-importer.js /usr/local/bin/order-importer \
    && mkdir -p /data \
    && chown node:node /data
# The image's unprivileged user; /data (a volume or a bind mount) must be writable by it (uid 1000).
USER node
VOLUME ["/data"]
EXPOSE 3000
# The dashboard's /healthz (no login needed, loopback is always an allowed host name): 200 while
# the watcher can do its work, 503 with the reason otherwise.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["node", "/app/docker/healthcheck.js"]
ENTRYPOINT ["order-importer"]
CMD ["watch"]
