//! Latency figures from an HDR histogram (microseconds, 3 significant
//! digits), printed in milliseconds.

use std::time::Duration;

use hdrhistogram::Histogram;

pub struct Latency(Histogram<u64>);

impl Latency {
    pub fn new() -> Latency {
        Latency(Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid bounds"))
    }

    pub fn record(&mut self, d: Duration) {
        self.0.saturating_record(d.as_micros().max(1) as u64);
    }

    pub fn add(&mut self, other: &Latency) {
        let _ = self.0.add(&other.0);
    }

    pub fn count(&self) -> u64 {
        self.0.len()
    }

    fn ms(&self, q: f64) -> f64 {
        self.0.value_at_quantile(q) as f64 / 1000.0
    }

    /// `p50 … p90 … p99 … max …` in milliseconds.
    pub fn line(&self) -> String {
        format!(
            "p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2} ms (n = {})",
            self.ms(0.50),
            self.ms(0.90),
            self.ms(0.99),
            self.0.max() as f64 / 1000.0,
            self.count()
        )
    }
}

/// Waits for the rooms' tasks and merges their latencies; a room that
/// failed is told on stderr and counted.
pub async fn gather(
    tasks: Vec<tokio::task::JoinHandle<anyhow::Result<Latency>>>,
) -> anyhow::Result<(Latency, usize)> {
    let mut latency = Latency::new();
    let mut failures = 0;
    for task in tasks {
        match task.await? {
            Ok(l) => latency.add(&l),
            Err(e) => {
                failures += 1;
                eprintln!("a room failed: {e:#}");
            }
        }
    }
    Ok((latency, failures))
}
