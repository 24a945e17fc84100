# syntax=docker/dockerfile:1
# doppel: one image for the consumers (node consumers/news.js, .../mail.js) and the API
# (node bin/doppel.js serve). Multi-stage: TypeScript is compiled with the dev dependencies, the
# runtime stage has production dependencies only and runs as a non-root user.

FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` (the build) runs below, once the sources are copied.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY data/lexicons ./data/lexicons
COPY scripts/copy-assets.mjs scripts/build-lexicons.mjs scripts/build-char-tables.mjs scripts/build-config-defaults.mjs ./scripts/
# bench/ and dev/ (benchmarks, local Redis and Kafka launchers) are development tools, not shipped.
RUN npm run build && rm -rf dist/bench dist/dev

FROM node:22-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY consumers/news.js consumers/mail.js ./consumers/
COPY data ./data
# The node image's unprivileged user (uid 1000); the manifests also set runAsNonRoot and a
# read-only root filesystem, so nothing here may write outside /tmp.
USER 1000:1000
# `doppel serve` listens on loopback by default; a container's loopback is unreachable from outside
# it, so in the image the API listens on every interface (set DOPPEL_API_TOKEN before publishing it).
ENV DOPPEL_API_HOST=0.0.0.0
EXPOSE 8080 9464
ENTRYPOINT ["node"]
CMD ["bin/doppel.js", "serve"]
