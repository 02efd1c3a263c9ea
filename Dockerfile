# The cfa-bot webhook server (Probot). Multi-stage: the build stage compiles TypeScript
# with the dev dependencies; the runtime stage has only the production dependencies, the
# compiled code and the manifest, and runs as the unprivileged `node` user.
#
#   docker build -t cfa-bot .
#   docker run -p 3000:3000 -e APP_ID=… -e PRIVATE_KEY="$(cat key.pem)" -e WEBHOOK_SECRET=… cfa-bot

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` builds, and the sources are not copied yet.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY app.yml ./
USER node
EXPOSE 3000
CMD ["node", "dist/app/server.js"]
