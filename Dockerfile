# order-importer: one image for the watcher, workers and the sandbox (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
# src/ is built into dist/, and holds the dashboard's page files (src/dashboard/assets), served as they are.
COPY src ./src
COPY jobs ./jobs
COPY sandbox ./sandbox
COPY bench ./bench
COPY samples ./samples
RUN npm ci && npm prune --omit=dev
ENV DATA_DIR=/data NODE_ENV=production
VOLUME ["/data"]
ENTRYPOINT ["node", "bin/order-importer.js"]
CMD ["watch"]
