# The game server: one image for the embedded default (SQLite in /data)
# and for each node of a cluster (DATABASE_URL=postgres://…, NATS_URL=…).
#
#   docker build -t boardgames .
#   docker run -p 8080:8080 -v boardgames:/data boardgames

# ---- build ----
FROM rust:1.95-bookworm AS build
WORKDIR /src
# Every member of the workspace (Cargo.toml) must be here for cargo to
# load it, the load tool `bench` too, though only the server is built.
COPY Cargo.toml Cargo.lock ./
COPY rules rules
COPY server server
COPY bench bench
COPY migrations migrations
RUN cargo build --release --locked -p server --bin server

# ---- run ----
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin game \
 && mkdir -p /data && chown game /data
WORKDIR /app
COPY --from=build /src/target/release/server /app/server
COPY web /app/web
COPY migrations /app/migrations
COPY docs /app/docs
USER game
ENV DATA_DIR=/data
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/app/server", "--addr", "0.0.0.0:8080", "--web-dir", "/app/web"]
