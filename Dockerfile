# The server as `npm start` runs it, in a container (docs/operations.md).
# Build: docker build -t creator-wizard .   Run: docker compose up (compose.yaml, with PostgreSQL).

# Stage 1: install every package and build the wizard, the inbox and the compiled server.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

# Stage 2: what runs: the build, the production packages, and the sources `npm run admin` reads
# (it runs through tsx). pg_dump/pg_restore for `npm run admin -- backup|restore` on PostgreSQL:
# Debian 12's client is PostgreSQL 15; keep it the server's major version or newer.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATABASE_URL=sqlite:/app/data/applications.db
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/dist ./dist
COPY --from=build /app/config ./config
COPY --from=build /app/src ./src
COPY --from=build /app/scripts ./scripts
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "build/server/server.mjs"]
