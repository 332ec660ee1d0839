//! Running the peers' node scripts (benches/node/, installed with `npm ci` there).

use std::path::{Path, PathBuf};
use std::process::Command;

/// benches/node/, where the scripts and their packages are.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/node")
}

/// `node benches/node/<script>`, for the caller to add arguments to and [`run`].
pub fn script(script: &str) -> Command {
    let mut command = Command::new("node");
    command.arg(dir().join(script));
    command
}

/// The standard output of `command` (from [`script`]); the error carries node's own
/// error when it cannot start, or the script's standard error when it fails.
pub fn run(command: &mut Command) -> Result<String, String> {
    let output = command.output().map_err(|e| format!("node: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{:?} failed: {}",
            command.get_args().next().unwrap_or_default(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
