//! The server binary as a child process, for the tests that kill it or
//! run several (`durable_rooms.rs`, `cluster.rs`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::TestServer;

/// The server binary running as a child process on a data folder. Killed
/// when dropped, so a failing test leaves no process behind.
pub struct Proc {
    pub child: Child,
    /// `running` is `None`: only `base` and `dir` are used.
    server: Option<TestServer>,
}

impl Proc {
    /// Starts the binary on a free port with `dir` as its data folder and
    /// waits until `/healthz` answers. Guests may host (`--guest-hosts`):
    /// these tests are about the process, not about who hosts.
    pub async fn launch(dir: tempfile::TempDir) -> Proc {
        Proc::launch_with(dir, &[]).await
    }

    /// [`Proc::launch`] with more arguments (`--database-url`, …).
    pub async fn launch_with(dir: tempfile::TempDir, args: &[&str]) -> Proc {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log_path(dir.path()))
            .expect("log file");
        Proc::launch_logging(dir, args, &[], log.into()).await
    }

    /// [`Proc::launch_with`] with the variables `env` set and its stderr
    /// going to `stderr` (a pipe nobody reads, say) instead of the log
    /// file, which then stays empty.
    pub async fn launch_logging(
        dir: tempfile::TempDir,
        args: &[&str],
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> Proc {
        let port = free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_server"))
            .args([
                "--guest-hosts",
                "--addr",
                &format!("127.0.0.1:{port}"),
                "--data-dir",
            ])
            .arg(dir.path())
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("the server binary starts");
        let base = format!("http://127.0.0.1:{port}");
        let mut proc = Proc {
            child,
            server: Some(TestServer::at(base.clone(), dir)),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = proc.child.try_wait().expect("wait") {
                panic!(
                    "the server exited at start ({status}):\n{}",
                    proc.log_tail()
                );
            }
            if let Ok(resp) = reqwest::get(format!("{base}/healthz")).await {
                if resp.status() == 200 {
                    return proc;
                }
            }
            assert!(
                Instant::now() < deadline,
                "no /healthz:\n{}",
                proc.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn s(&self) -> &TestServer {
        self.server.as_ref().expect("server")
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log_tail(&self) -> String {
        let text = self
            .server
            .as_ref()
            .and_then(|s| std::fs::read_to_string(log_path(s.dir.path())).ok())
            .unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }

    /// `kill -9`: no chance to drain anything. Returns the data folder.
    pub fn kill9(mut self) -> tempfile::TempDir {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
        self.server.take().expect("server").dir
    }

    /// Sends SIGTERM (`kill -TERM pid`).
    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -TERM failed: {status}");
    }

    /// Waits up to `within` for the process to exit; its status, or
    /// `None` if it is still running.
    pub async fn exited(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The data folder of a process that has exited.
    pub fn into_dir(mut self) -> tempfile::TempDir {
        self.server.take().expect("server").dir
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn log_path(dir: &Path) -> PathBuf {
    dir.join("server.log")
}

/// Runs the binary on a free port with `data_dir` and `args`, expecting it
/// to refuse to start: its exit status and what it wrote to stderr (it
/// is killed if it is still running after 15 s, and the test fails).
pub async fn refused_start(data_dir: &Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    let port = free_port().to_string();
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["--addr", &format!("127.0.0.1:{port}"), "--data-dir"])
        .arg(data_dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server binary starts");
    let out = tokio::time::timeout(Duration::from_secs(15), child.wait_with_output())
        .await
        .expect("the server exits at start")
        .expect("its output");
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

impl Proc {
    /// Sends `signal` (`STOP`, `CONT`, `TERM`…) with `kill`. After `STOP`,
    /// waits until every thread of the process is stopped (`T` in
    /// `/proc/PID/task/*/stat`): the signal is only queued when `kill`
    /// returns.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} failed: {status}");
        if signal == "STOP" {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !self.stopped() {
                assert!(Instant::now() < deadline, "the process did not stop");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// Whether every thread of the process is stopped.
    fn stopped(&self) -> bool {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", self.pid())) else {
            return false;
        };
        tasks.flatten().all(|task| {
            std::fs::read_to_string(task.path().join("stat"))
                .ok()
                .and_then(|stat| {
                    // The state follows the command name in parentheses.
                    let after = stat.rsplit_once(')')?.1;
                    after
                        .split_whitespace()
                        .next()
                        .map(|s| s == "T" || s == "t")
                })
                .unwrap_or(false)
        })
    }
}
