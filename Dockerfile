# syntax=docker/dockerfile:1
# Three stages on the official Bun images: every dependency to build the web app, production
# dependencies alone for the runtime, and a slim runtime holding only what `bun src/server.ts`
# and `bun run db:seed` need. See README "Docker".

# Every dependency (Vite, Tailwind, the web app's libraries): the web build needs them.
FROM oven/bun:1.4.5 AS deps
WORKDIR /app
COPY package.json bun.lock bunfig.toml ./
# bun install applies package.json's patchedDependencies, so the patches come first.
COPY patches ./patches
RUN bun install --frozen-lockfile

# What the server imports at run time: `dependencies` only. Peers are left out too: each package
# the server imports is a direct dependency (tests/deploy/runtime-imports.test.ts), and the peers that
# would come along are build tools (TypeScript, by way of tRPC). Bun's cache from the stage above
# makes this an offline copy.
FROM deps AS prod-deps
RUN rm -rf node_modules && bun install --frozen-lockfile --production --omit=peer

FROM deps AS build
COPY . .
RUN bun run build

FROM oven/bun:1.4.5-slim AS runtime
# ffmpeg makes the seed's sample videos and runs the media pipeline (its `setpriv` is util-linux,
# in every Debian image); false leaves it out (README gives both sizes; the seed then says what
# is missing, and the server starts no media worker).
ARG WITH_FFMPEG=true
RUN if [ "$WITH_FFMPEG" = true ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core \
      && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /app
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json tsconfig.json tsconfig.base.json ./
COPY src ./src
COPY db ./db
COPY --from=build /app/web/dist ./web/dist
# The public pages' server render: one file with React inside (no web dependency at run time).
COPY --from=build /app/web/dist-ssr ./web/dist-ssr
RUN mkdir -p /data && chown bun:bun /data
# Owned by root and not writable by the server: only /data is.
USER bun
VOLUME ["/data"]
EXPOSE 3000
# Migrations run at start-up (src/app.ts), before the port opens.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD bun -e "const r = await fetch('http://127.0.0.1:' + (process.env.PORT ?? 3000) + '/healthz'); process.exit(r.ok ? 0 : 1)"
CMD ["bun", "src/server.ts"]
