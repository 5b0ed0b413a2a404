//! jungle: being written (see the open issue). Placeholder so the crate builds.

use crate::cli::Flags;

/// Entry point of `perft jungle`.
pub fn perft_cli(_depth: u32, _flags: &Flags) -> Result<u64, String> {
    Err("jungle is not implemented yet".into())
}
