//! Where the load goes: a server at `--url` (with `--pid` for its memory
//! and CPU), or one started in this process.

use std::time::Instant;

use clap::Args;

#[derive(Args, Clone, Debug)]
pub struct TargetArgs {
    /// The server's address (http://host:port). Without it, a server is
    /// started in this process.
    #[arg(long)]
    pub url: Option<String>,
    /// The server's process id, for its memory (VmRSS) and CPU time.
    #[arg(long)]
    pub pid: Option<u32>,
}

pub struct Target {
    pub base: String,
    /// The process whose memory and CPU are reported.
    pub pid: u32,
    pub in_process: bool,
    _server: Option<(server::Running, tempfile::TempDir)>,
}

impl Target {
    /// The target of a load scenario: an in-process server has the limits
    /// meant for people lifted (rooms per address, messages a second).
    pub async fn new(args: &TargetArgs) -> anyhow::Result<Target> {
        Target::open(args, true).await
    }

    /// The target of the `abuse` scenario: an in-process server keeps
    /// every limit a public server has (only `--guest-hosts` is on, so
    /// the players need no account).
    pub async fn with_limits(args: &TargetArgs) -> anyhow::Result<Target> {
        Target::open(args, false).await
    }

    /// A load target whose in-process server unloads a room with nobody
    /// online after `idle_secs` (the `turn-based` scenario; a server at
    /// `--url` has its own `--room-idle-secs`).
    pub async fn with_idle(args: &TargetArgs, idle_secs: u64) -> anyhow::Result<Target> {
        Target::open_with(args, true, |c| c.room_idle_secs = idle_secs).await
    }

    /// A load target whose in-process server is set by `tweak` too (the
    /// `analysis` scenario's `--analysis-ms`).
    pub async fn with_config(
        args: &TargetArgs,
        tweak: impl FnOnce(&mut server::Config),
    ) -> anyhow::Result<Target> {
        Target::open_with(args, true, tweak).await
    }

    async fn open(args: &TargetArgs, lift_limits: bool) -> anyhow::Result<Target> {
        Target::open_with(args, lift_limits, |_| {}).await
    }

    async fn open_with(
        args: &TargetArgs,
        lift_limits: bool,
        tweak: impl FnOnce(&mut server::Config),
    ) -> anyhow::Result<Target> {
        if let Some(url) = &args.url {
            return Ok(Target {
                base: url.trim_end_matches('/').to_string(),
                pid: args.pid.unwrap_or(0),
                in_process: false,
                _server: None,
            });
        }
        let dir = tempfile::tempdir()?;
        let mut config = server::Config::for_tests(dir.path().to_path_buf());
        config.abandon_secs = 3600;
        if lift_limits {
            config.room_burst = 0;
            config.game_burst = 0;
            config.lookup_burst = 0;
            config.message_rate = 0.0;
        } else {
            // `for_tests` lifts the socket cap per address; a public
            // server has it.
            use clap::Parser;
            config.max_sockets_per_addr =
                server::Config::parse_from(["server"]).max_sockets_per_addr;
        }
        tweak(&mut config);
        let running = server::start(config).await?;
        Ok(Target {
            base: format!("http://{}", running.addr),
            pid: std::process::id(),
            in_process: true,
            _server: Some((running, dir)),
        })
    }

    pub fn ws(&self) -> String {
        self.base.replace("http://", "ws://")
    }

    /// The server's resident memory in KiB, if known.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    }

    /// A mark to measure the server's CPU time (and this tool's) from.
    pub fn cpu_mark(&self) -> CpuMark {
        CpuMark {
            at: Instant::now(),
            ticks: cpu_ticks(&self.pid.to_string()),
            own: cpu_ticks("self"),
        }
    }

    /// The server's CPU use since `mark`, in percent of one core.
    pub fn cpu_since(&self, mark: &CpuMark) -> Option<f64> {
        mark.percent(cpu_ticks(&self.pid.to_string())?, mark.ticks?)
    }

    /// This tool's own CPU use since `mark`, in percent of one core: on a
    /// machine it shares with the server, what the server could not use.
    /// `None` when the server runs in this process (it is included).
    pub fn own_cpu_since(&self, mark: &CpuMark) -> Option<f64> {
        if self.in_process {
            return None;
        }
        mark.percent(cpu_ticks("self")?, mark.own?)
    }

    /// `server CPU: … % of one core; this tool: … %`, since `mark`.
    pub fn cpu_line(&self, mark: &CpuMark) -> Option<String> {
        let server = self.cpu_since(mark)?;
        Some(match self.own_cpu_since(mark) {
            Some(own) => format!("server CPU: {server:.0} % of one core; this tool: {own:.0} %"),
            None => format!("server CPU: {server:.0} % of one core"),
        })
    }

    /// `server CPU per move: … µs`: the server's CPU time since `mark`
    /// over the `moves` it carried meanwhile. The figure that holds on a
    /// shared machine, where rates and latencies move with the load.
    pub fn cpu_per_move_line(&self, mark: &CpuMark, moves: u64) -> Option<String> {
        let used = cpu_ticks(&self.pid.to_string())?.checked_sub(mark.ticks?)?;
        // USER_HZ ticks: 100 a second, so 10 000 µs each.
        let micros = used as f64 * 10_000.0;
        let whose = if self.in_process {
            " (the clients included: the server runs in this process)"
        } else {
            ""
        };
        Some(format!(
            "server CPU per move: {:.1} µs ({:.2} s of CPU over {moves} moves){whose}",
            micros / moves.max(1) as f64,
            micros / 1e6
        ))
    }

    /// How the figures should be read.
    pub fn describe(&self) -> String {
        if self.in_process {
            format!(
                "{} (in this process: memory and CPU include the clients)",
                self.base
            )
        } else {
            format!("{} (server pid {})", self.base, self.pid)
        }
    }
}

pub struct CpuMark {
    at: Instant,
    ticks: Option<u64>,
    own: Option<u64>,
}

impl CpuMark {
    fn percent(&self, now: u64, then: u64) -> Option<f64> {
        let used = now.checked_sub(then)?;
        // Linux reports these in USER_HZ, 100 a second.
        Some(used as f64 / 100.0 / self.at.elapsed().as_secs_f64() * 100.0)
    }
}

/// The user and system CPU time of process `pid` (a number, or `self`)
/// so far, in USER_HZ ticks.
fn cpu_ticks(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}
