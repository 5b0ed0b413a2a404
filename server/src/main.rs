/// jemalloc rather than the system's malloc: about a sixth less of the
/// server's CPU a move in `bench many-rooms`, for 15.1 KiB of memory per
/// idle socket against 14.6 (BENCHMARKS.md, "fifth part"). The feature
/// `system-alloc` keeps the system's malloc, for heap profilers that only
/// see it (`valgrind --tool=dhat`, BENCHMARKS.md "Memory per socket").
#[cfg(not(any(target_env = "msvc", feature = "system-alloc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use std::process::ExitCode;

use clap::Parser;

/// A bad flag is clap's error (exit 2); anything that fails once the
/// flags are read (the address taken, the database or NATS unreachable,
/// no web client) is one line, `Error: ` then what failed and why
/// (`anyhow`'s contexts joined by `: `), and exit 1.
#[tokio::main]
async fn main() -> ExitCode {
    // Log lines that stderr does not take are dropped, never a panic
    // (`server::LogWriter`).
    tracing_subscriber::fmt()
        .with_env_filter(server::log_filter(std::env::var("RUST_LOG").ok()))
        .with_writer(|| server::LogWriter)
        .log_internal_errors(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let config = server::Config::parse();
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            use std::io::Write;
            // Not `eprintln!`, which panics when stderr is gone.
            let _ = writeln!(server::LogWriter, "Error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: server::Config) -> anyhow::Result<()> {
    let running = server::start(config).await?;
    running.until_signal().await?;
    Ok(())
}
