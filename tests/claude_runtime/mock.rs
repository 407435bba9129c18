//! `claude -p` against the scripted mock model of `tests/agents/mock_model.py` (the Anthropic
//! Messages API on 127.0.0.1): for the cases only a session shows (which hooks run, which rules
//! are loaded when).

use std::path::{Path, PathBuf};
use std::process::Command;

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
    let _ = std::fs::remove_file(tmp.join("port"));
    let _ = std::fs::remove_file(tmp.join("requests.jsonl"));
    let mock_py = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/mock_model.py");
    let port_file = tmp.join("port");
    let log: PathBuf = tmp.join("requests.jsonl");
    let mut mock = Command::new("python3")
        .arg(&mock_py)
        .args(["--script", &script.to_string_lossy(), "--log", &log.to_string_lossy()])
        .args(["--port-file", &port_file.to_string_lossy()])
        .spawn()
        .expect("start the mock model");
    let mut port = String::new();
    for _ in 0..100 {
        port = std::fs::read_to_string(&port_file).unwrap_or_default();
        if !port.trim().is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(!port.trim().is_empty(), "the mock model did not start");
    let home = Home::new(tmp);
    let mut cmd = home.command(bin);
    cmd.current_dir(project)
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{}", port.trim()))
        .env("ANTHROPIC_API_KEY", "mock")
        .env("IS_SANDBOX", "1")
        .args(["-p", "go", "--output-format", "stream-json", "--verbose"])
        .args(["--permission-mode", "bypassPermissions"]);
    for p in plugins {
        cmd.arg("--plugin-dir").arg(p);
    }
    let out = cmd.output().expect("run claude -p");
    let _ = mock.kill();
    let _ = mock.wait();
    assert!(
        out.status.success(),
        "claude -p failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| r["step"] != "side")
        .map(|r| r["body"].clone())
        .collect()
}
