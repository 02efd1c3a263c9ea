# The cfa-bot webhook server. Multi-stage: the build stage bundles the server into one file
# with esbuild (`npm run bundle`: dist/cfa-server.mjs, every dependency inside); the runtime
# stage is Node and that file, no node_modules, run as the unprivileged `node` user. The
# release workflow (.github/workflows/release.yml) pushes it to ghcr.io/<owner>/cfa-bot.
#
#   docker build -t cfa-bot .
#   docker run -p 3000:3000 -e APP_ID=… -e PRIVATE_KEY="$(cat key.pem)" -e WEBHOOK_SECRET=… cfa-bot

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` runs tsc, which the bundle does not need.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/bundle.ts ./scripts/
COPY src ./src
RUN npm run bundle

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=build /app/dist/cfa-server.mjs ./dist/cfa-server.mjs
COPY app.yml ./
USER node
EXPOSE 3000
# Docker's SIGTERM reaches node directly (no shell, no npm): the server stops taking
# deliveries and drains its queue for up to 8 s (docker stop waits 10 s).
CMD ["node", "dist/cfa-server.mjs"]
