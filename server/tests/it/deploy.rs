//! The deployment files: `docker-compose.yml` is checked by `docker
//! compose config` (or `docker-compose config`, Debian's package, which
//! validates offline); without either the check is skipped, saying so,
//! except under CI (`CI` set), where it fails. No container engine is
//! needed. What the topology must hold is checked on the files themselves,
//! cargo loads the workspace from exactly what the Dockerfile's build stage
//! copies, and the compose file's `TRUSTED_PROXY` is parsed by the
//! server's own flags. The topology itself runs, as processes behind the
//! real nginx, in `e2e/compose.test.mjs`.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use clap::Parser;
use common::TestServer;
use server::Config;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_compose_file_is_valid_where_compose_exists() {
    let file = root().join("docker-compose.yml");
    let tools: [&[&str]; 2] = [&["docker", "compose"], &["docker-compose"]];
    for tool in tools {
        // Is this tool here at all (`docker` may lack the compose plugin)?
        let version = Command::new(tool[0])
            .args(&tool[1..])
            .arg("version")
            .output();
        if !version.is_ok_and(|out| out.status.success()) {
            continue;
        }
        let out = Command::new(tool[0])
            .args(&tool[1..])
            .arg("-f")
            .arg(&file)
            .args(["config", "-q"])
            .output()
            .expect("compose runs");
        assert!(
            out.status.success(),
            "{} says the compose file is invalid:\n{}",
            tool.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    let missing = "neither `docker compose` nor `docker-compose` is installed here";
    assert!(
        std::env::var_os("CI").is_none(),
        "{missing}: needed under CI (apt-get install docker-compose)"
    );
    eprintln!("skipped: {missing}");
}

#[test]
fn the_compose_file_runs_postgres_nats_two_nodes_and_a_proxy() {
    let compose = read("docker-compose.yml");
    common::assert_contains_all(
        "docker-compose.yml",
        &compose,
        &[
            "image: postgres:",
            "image: nats:",
            "pg_isready",
            "healthcheck:",
            "node1:",
            "node2:",
            "DATABASE_URL: postgres://",
            "NATS_URL: nats://",
            "image: nginx:",
            "pgdata:",
            "PUBLIC_URL: http://localhost:8080",
        ],
    );
    let nginx = read("deploy/nginx.conf");
    common::assert_contains_all(
        "deploy/nginx.conf",
        &nginx,
        &[
            "server node1:8080",
            "server node2:8080",
            "proxy_set_header Upgrade $http_upgrade",
            "proxy_set_header Connection $connection_upgrade",
            "proxy_http_version 1.1",
            // The Host with its port: the Origin of the browser's pages.
            "proxy_set_header Host $http_host",
            "proxy_next_upstream error timeout",
            // A room's sockets meet on one node, the one that runs it
            // (e2e/compose.test.mjs checks where they land).
            "hash $room_code consistent",
            "location ~ \"^/(ws|api/rooms)/[A-Z0-9]{6}(/|$)\"",
        ],
    );
    assert!(!nginx.contains("$host;"), "$host drops the port");
    // No node is ever marked down: a dead one's refused connect goes to
    // the next at once (e2e/compose.test.mjs kills one).
    for server in nginx
        .lines()
        .filter(|l| l.trim().starts_with("server node"))
    {
        assert!(server.contains("max_fails=0"), "{server}");
    }
    // The official `nats` image is FROM scratch: no wget for a health check.
    assert!(
        compose.contains("image: nats:2.10-alpine"),
        "the NATS health check needs an image with wget"
    );
}

#[test]
fn the_dockerfile_is_multi_stage_non_root_with_the_web_folder_and_migrations() {
    let dockerfile = read("Dockerfile");
    assert!(
        dockerfile.matches("\nFROM ").count() + usize::from(dockerfile.starts_with("FROM ")) >= 2
    );
    assert!(dockerfile.contains("AS build"));
    assert!(dockerfile.contains("COPY --from=build"));
    assert!(dockerfile.contains("COPY web "));
    assert!(dockerfile.contains("COPY migrations "));
    let user = dockerfile
        .lines()
        .rev()
        .find(|l| l.starts_with("USER "))
        .expect("a USER line");
    assert_ne!(user.trim(), "USER root");
}

/// The sources the Dockerfile's build stage copies (`COPY a b` lines
/// before the second `FROM`), as (from, to) pairs.
fn build_stage_copies() -> Vec<(String, String)> {
    let dockerfile = read("Dockerfile");
    dockerfile
        .split("\nFROM ")
        .nth(1)
        .expect("a build stage")
        .lines()
        .filter_map(|l| l.strip_prefix("COPY "))
        .flat_map(|args| {
            let words: Vec<&str> = args.split_whitespace().collect();
            let (to, from) = words.split_last().expect("COPY from to");
            from.iter()
                .map(|f| (f.to_string(), to.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

#[test]
fn cargo_loads_the_workspace_from_what_the_dockerfile_copies() {
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in build_stage_copies() {
        let to = if to.ends_with('/') {
            dir.path().join(&to).join(&from)
        } else {
            dir.path().join(&to)
        };
        copy_tree(&root().join(&from), &to);
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--offline",
            "--no-deps",
            "--format-version",
            "1",
        ])
        .current_dir(dir.path())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo cannot load the workspace the Dockerfile copies:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = common::names(&metadata["packages"]);
    assert!(packages.contains(&"server"), "{packages:?}");
}

/// The `TRUSTED_PROXY` of the compose file's nodes.
fn compose_trusted_proxy() -> String {
    let compose = read("docker-compose.yml");
    let line = compose
        .lines()
        .find_map(|l| l.trim().strip_prefix("TRUSTED_PROXY:"))
        .expect("the nodes name their proxy with TRUSTED_PROXY");
    line.trim().trim_matches('"').to_string()
}

#[test]
fn the_compose_files_trusted_proxy_is_accepted_and_is_not_everyone() {
    let value = compose_trusted_proxy();
    let config = Config::try_parse_from(["server", "--trusted-proxy", &value])
        .unwrap_or_else(|e| panic!("TRUSTED_PROXY {value:?} is refused: {e}"));
    assert!(!config.trusted_proxies.is_empty());
    for outsider in ["198.51.100.1", "2001:db8::1", "127.0.0.1"] {
        let ip = outsider.parse().unwrap();
        assert!(
            !config.trusted_proxies.iter().any(|p| p.contains(ip)),
            "TRUSTED_PROXY {value:?} trusts {outsider}"
        );
    }
    // What it trusts is the proxy's pinned address, and no node's.
    let compose = read("docker-compose.yml");
    let pinned = |service: &str| -> std::net::IpAddr {
        // The service's lines: up to the next line indented less than its keys.
        let block = compose
            .split_once(&format!("\n  {service}:"))
            .unwrap_or_else(|| panic!("a {service} service"))
            .1;
        block
            .lines()
            .skip(1)
            .take_while(|l| l.is_empty() || l.starts_with("    "))
            .find_map(|l| l.trim().strip_prefix("ipv4_address:"))
            .unwrap_or_else(|| panic!("{service} has a pinned address"))
            .trim()
            .parse()
            .expect("an IP address")
    };
    let trusts = |ip| config.trusted_proxies.iter().any(|p| p.contains(ip));
    assert!(
        trusts(pinned("proxy")),
        "TRUSTED_PROXY {value:?} is not the proxy's address"
    );
    for node in ["node1", "node2"] {
        assert!(
            !trusts(pinned(node)),
            "TRUSTED_PROXY {value:?} trusts {node}"
        );
    }
    // Ranges and addresses mix in one list; a bad entry is refused.
    let config =
        Config::try_parse_from(["server", "--trusted-proxy", "10.0.0.0/8,fd00::/8,192.0.2.7"])
            .expect("ranges and addresses");
    assert_eq!(config.trusted_proxies.len(), 3);
    assert!(Config::try_parse_from(["server", "--trusted-proxy", "10.0.0.0/40"]).is_err());
}

/// Creates a room over real HTTP with `X-Forwarded-For: from`; the status.
async fn create_room_from(server: &TestServer, from: &str) -> u16 {
    reqwest::Client::new()
        .post(format!("{}/api/rooms", server.base))
        .header("Content-Type", "application/json")
        .header("X-Forwarded-For", from)
        .body("{}")
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_request_from_a_trusted_range_is_counted_by_its_forwarded_address() {
    // The test's requests come from 127.0.0.1: inside 127.0.0.0/8.
    let server = TestServer::start_with(|c| {
        c.room_burst = 1;
        c.room_every_secs = 3600;
        c.trusted_proxies = Config::try_parse_from(["server", "--trusted-proxy", "127.0.0.0/8"])
            .unwrap()
            .trusted_proxies;
    })
    .await;
    assert_eq!(create_room_from(&server, "203.0.113.1").await, 201);
    assert_eq!(create_room_from(&server, "203.0.113.1").await, 429);
    // Another forwarded client has its own allowance.
    assert_eq!(create_room_from(&server, "203.0.113.2").await, 201);
    // A hop inside the range is a proxy too, not the client.
    assert_eq!(
        create_room_from(&server, "203.0.113.2, 127.0.0.9").await,
        429
    );
    // A range the peer is outside of: the header is ignored, and every
    // request counts against the peer itself.
    let server = TestServer::start_with(|c| {
        c.room_burst = 1;
        c.room_every_secs = 3600;
        c.trusted_proxies = vec!["10.0.0.0/8".parse().unwrap()];
    })
    .await;
    assert_eq!(create_room_from(&server, "203.0.113.1").await, 201);
    assert_eq!(create_room_from(&server, "203.0.113.2").await, 429);
}
