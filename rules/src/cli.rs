//! Tiny `--flag value` reader shared by the command-line tools (`perft`,
//! the bot ladder). Each game reads its own options from it.

/// The `main` of a tool: `run` on the arguments after the program's
/// name; on an error, `NAME: error` and the usage line on stderr, and
/// exit code 2.
pub fn main(
    name: &str,
    usage: &str,
    run: impl FnOnce(&[String]) -> Result<(), String>,
) -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            eprintln!("{usage}");
            std::process::ExitCode::from(2)
        }
    }
}

/// `--name value` pairs, in order, after the positional arguments.
#[derive(Debug, Default, Clone)]
pub struct Flags {
    pairs: Vec<(String, String)>,
}

impl Flags {
    /// Reads `--name value` pairs; anything else is an error.
    pub fn parse(args: &[String]) -> Result<Flags, String> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let name = arg
                .strip_prefix("--")
                .ok_or_else(|| format!("expected --flag, found {arg:?}"))?;
            let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
            pairs.push((name.to_string(), value.clone()));
        }
        Ok(Flags { pairs })
    }

    /// The value of `--name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `--name` parsed as `T`, or `default` if absent.
    pub fn get_or<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name}: cannot read {v:?}")),
        }
    }

    /// Refuses any flag not in `known`, so a typo is not silently ignored.
    pub fn only(&self, known: &[&str]) -> Result<(), String> {
        for (n, _) in &self.pairs {
            if !known.contains(&n.as_str()) {
                return Err(format!(
                    "unknown option --{n} (known: {})",
                    known.join(", ")
                ));
            }
        }
        Ok(())
    }
}
