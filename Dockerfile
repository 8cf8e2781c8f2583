# The production image: install with the lockfile, build, then a slim runtime holding only the
# server's production dependencies, the built server and web app, and the PostgreSQL client (pg_dump /
# pg_restore for backups). Runs as the unprivileged `node` user. No secrets are baked in: all
# configuration comes from the environment at run time (see .env.example and the README).
#
# scripts/verify-dockerfile.mjs runs these same steps, in this order, natively in a temporary
# directory and checks that the result answers /readyz (part of `npm test`). To keep that possible:
#   - RUN steps use paths relative to WORKDIR (never absolute ones), so they run unchanged anywhere;
#   - a step that only changes the operating system is preceded by `# native: skip (<tools>)`; the
#     verifier skips it and checks that the named tools exist on the host instead.
# Node and pnpm versions match scripts/bootstrap.mjs (a test keeps them in step).

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION=12.21.0
WORKDIR /app
# Manifests first, so the dependency layer is reused until the lockfile or a manifest changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
# A fix of a dependency that pnpm applies at install (patchedDependencies in pnpm-workspace.yaml).
COPY patches patches
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
RUN npx -y pnpm@${PNPM_VERSION} install --frozen-lockfile --reporter=append-only
COPY tsconfig.base.json ./
COPY packages packages
RUN npx -y pnpm@${PNPM_VERSION} -r --workspace-concurrency=1 run build
# The server's production dependencies as a self-contained folder (no links into the workspace).
RUN npx -y pnpm@${PNPM_VERSION} --filter @uf/server deploy --prod .deploy/server

FROM ${NODE_IMAGE} AS runtime
# Debian bookworm's client is PostgreSQL 15, the major the compose file pins (pg_dump must be at
# least the server's major).
# native: skip (pg_dump pg_restore)
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV HOST=0.0.0.0 \
  PORT=3000 \
  WEB_DIST_DIR=/app/web \
  DATA_DIR=/app/data \
  BACKUP_DIR=/app/backups
COPY --from=build /app/.deploy/server/package.json ./
COPY --from=build /app/.deploy/server/node_modules ./node_modules
COPY --from=build /app/packages/server/dist ./dist
COPY --from=build /app/packages/web/dist ./web
# The server-side renderer of the landing form's steps (ADR 056): self-contained, found beside the web app.
COPY --from=build /app/packages/web/dist-ssr ./web-ssr
RUN mkdir -p data backups
# The image's own unprivileged user owns only what it writes; the verifier runs as the current user.
# native: skip ()
RUN chown node:node data backups
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: SIGTERM reaches node itself, which stops gracefully (packages/server/src/main.ts).
# --max-semi-space-size=4: a small young generation keeps memory flat under streaming exports (ADR 013).
CMD ["node", "--max-semi-space-size=4", "dist/main.js"]
