//! The deployment files: `docker-compose.yml` is checked by `docker
//! compose config` (or `docker-compose config`) where either exists, and
//! skipped, saying so, where neither does (no container engine is needed
//! for that check). What the topology must hold is checked on the files
//! themselves everywhere.

use std::path::PathBuf;
use std::process::Command;

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
    eprintln!("skipped: neither `docker compose` nor `docker-compose` is installed here");
}

#[test]
fn the_compose_file_runs_postgres_nats_two_nodes_and_a_proxy() {
    let compose = read("docker-compose.yml");
    for needle in [
        "image: postgres:",
        "image: nats:",
        "--jetstream",
        "pg_isready",
        "healthcheck:",
        "node1:",
        "node2:",
        "DATABASE_URL: postgres://",
        "NATS_URL: nats://",
        "image: nginx:",
        "pgdata:",
        "natsdata:",
    ] {
        assert!(
            compose.contains(needle),
            "docker-compose.yml lacks {needle:?}"
        );
    }
    let nginx = read("deploy/nginx.conf");
    for needle in [
        "server node1:8080",
        "server node2:8080",
        "proxy_set_header Upgrade $http_upgrade",
        "proxy_set_header Connection $connection_upgrade",
        "proxy_http_version 1.1",
    ] {
        assert!(nginx.contains(needle), "deploy/nginx.conf lacks {needle:?}");
    }
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
