# The game server: one image for the embedded default (SQLite in /data)
# and for each node of a cluster (DATABASE_URL=postgres://…, NATS_URL=…).
#
#   docker build -t boardgames .
#   docker run -p 8080:8080 -v boardgames:/data \
#     -e PUBLIC_URL=http://localhost:8080 boardgames
#
# PUBLIC_URL is the address browsers use (invite links, mail); every flag
# of README's "Running it" is also a variable (ADDR, WEB_DIR, DATA_DIR,
# DATABASE_URL, …), set here as defaults that `-e` or compose overrides.

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
# Defaults as variables, not flags on the ENTRYPOINT: a flag there would
# win over the variable, so ADDR or WEB_DIR given to the container would
# be ignored. The health check below asks 127.0.0.1:8080: with another
# port in ADDR, override it too (docker run --health-cmd, or compose's
# healthcheck:).
ENV ADDR=0.0.0.0:8080 \
    WEB_DIR=/app/web \
    DATA_DIR=/data
EXPOSE 8080
# No VOLUME: Docker would give each container an anonymous volume of its
# own, and the nodes of a cluster (DATABASE_URL=postgres://…) keep nothing
# in /data. The SQLite default keeps everything there: mount a named
# volume on it (-v boardgames:/data, above), or the data goes with the
# container.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/app/server"]
