# syntax=docker/dockerfile:1
# The console's image: one API process per container (docs/deploy.md). Not built on the
# development machines (no image registry is reachable there); the layout it runs is the one the
# cluster test runs from the same build (`npm run build`: apps/server/dist and apps/web/dist).

# 1. The workspaces' manifests, for both installs below.
FROM node:20-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/

# 2. Build the web app and the server bundle with every dependency.
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 3. The server's runtime dependencies only (dist/main.js keeps them external).
FROM manifests AS deps
RUN npm ci --omit=dev --workspace @mes/server --no-audit --no-fund

# 4. What runs: the bundle, its migrations, the built web app; as the image's `node` user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# Liveness only: an outage of the database or the broker must not get the process restarted
# (docs/operations.md "Health, readiness and liveness"); the balancer routes by /api/health/ready.
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=32", "apps/server/dist/main.js"]
