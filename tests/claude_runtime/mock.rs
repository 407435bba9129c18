//! `claude -p` against the scripted mock model of `tests/agents/mock_model.py` (the Anthropic
//! Messages API on 127.0.0.1): for the cases only a session shows (which hooks run, which rules
//! are loaded when).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::oracle::Home;

/// Run `claude -p go` in `project` (home `tmp/home`, every tool allowed) against the mock model
/// playing `script`; returns the requests the model got (their bodies), in order, side requests
/// (titles, summaries) left out.
pub fn run_claude(bin: &Path, tmp: &Path, project: &Path, script: &Path) -> Vec<Value> {
    run_claude_with(bin, tmp, project, script, &[])
}

/// [`run_claude`] with `--plugin-dir` for each of `plugins`.
pub fn run_claude_with(bin: &Path, tmp: &Path, project: &Path, script: &Path, plugins: &[PathBuf]) -> Vec<Value> {
    let mock = super::mock_support::Mock::start(tmp, script);
    let home = Home::new(tmp);
    let mut cmd = home.command(bin);
    cmd.current_dir(project)
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{}", mock.port))
        .env("ANTHROPIC_API_KEY", "mock")
        .env("IS_SANDBOX", "1")
        .args(["-p", "go", "--output-format", "stream-json", "--verbose"])
        .args(["--permission-mode", "bypassPermissions"]);
    for p in plugins {
        cmd.arg("--plugin-dir").arg(p);
    }
    let out = cmd.output().expect("run claude -p");
    let requests = mock.finish();
    assert!(
        out.status.success(),
        "claude -p failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    requests
}
