# syntax=docker/dockerfile:1
# Ledgerdesk's headless server for a firm (docs/deploy.md): the REST API, the MCP
# bridge and the screens, on PostgreSQL (LEDGERDESK_DATABASE_URL) or a data folder
# in /data. No Electron, no build tools and no sources in the image that runs.

# The build: dependencies (better-sqlite3 compiles here), the screens and the command.
FROM node:20.20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Scripts off: `prepare` builds from sources not copied yet; better-sqlite3 is built on its own below.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
RUN node scripts/build.mjs && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# What runs: the built command and screens, the production dependencies, the migrations.
FROM node:20.20-bookworm-slim
ENV NODE_ENV=production \
    LEDGERDESK_HEADLESS=1 \
    LEDGERDESK_DATA=/data \
    LEDGERDESK_PORT=7311
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts/freshness.mjs ./scripts/
COPY --from=build /app/db ./db
COPY --from=build /app/out/cli ./out/cli
COPY --from=build /app/out/renderer ./out/renderer
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
# The image's own user (uid 1000), not root.
USER node
EXPOSE 7311
# /healthz answers without a Host check on loopback: the process lives. Readiness (the database) is /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.LEDGERDESK_PORT||7311)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Listening beyond loopback needs LEDGERDESK_PUBLIC_URL (behind a TLS proxy) or --tls-cert/--tls-key: serve says so.
CMD ["node", "bin/ledgerdesk.mjs", "serve", "--listen", "0.0.0.0:7311"]
