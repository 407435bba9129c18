#![allow(dead_code)] // Shared by several test crates; each uses a part of it.
//! Running the `agent-lsp` binary from the end-to-end tests of its commands, isolated from the
//! machine it runs on, and writing the workspaces they run on.

use std::fs;
use std::path::Path;
use std::process::Command;

use tempfile::TempDir;

pub const BIN: &str = env!("CARGO_BIN_EXE_agent-lsp");

/// Write `text` at `root/rel`, creating the parent directories.
pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().expect("file has a parent")).expect("create dirs");
    fs::write(&path, text).expect("write file");
}

/// Write each `(relative path, content)` under `root`.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        write(root, rel, text);
    }
}

/// A temp dir holding `files` (relative path, content).
pub fn workspace(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("create temp dir");
    write_files(dir.path(), files);
    dir
}

/// The binary with `args`, run in `cwd` with `NO_COLOR=1` and no global-config variables from
/// the caller's environment. `HOME` points at a directory that does not exist, so that
/// `~/.config/opencode` and `~/.opencode` resolve to nothing (a test of the global handling
/// sets `HOME` itself).
pub fn command(cwd: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("HOME", "/nonexistent/agent-lsp-test-home");
    for var in [
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "OPENCODE_CONFIG",
        "OPENCODE_CONFIG_DIR",
        "OPENCODE_TUI_CONFIG",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

#[derive(Debug)]
pub struct Output {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `cmd`; fails if it was killed, printed something that is not UTF-8, or panicked.
pub fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("run agent-lsp");
    let output = Output {
        status: out.status.code().expect("agent-lsp was killed by a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    assert!(!output.stderr.contains("panicked"), "agent-lsp panicked: {output:#?}");
    output
}

/// `agent-lsp ARGS...` in `cwd`.
pub fn agent_lsp(cwd: &Path, args: &[&str]) -> Output {
    run(&mut command(cwd, args))
}
