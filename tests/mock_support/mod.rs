//! The scripted mock model of `tests/agents/mock_model.py` (on 127.0.0.1), shared by the
//! harnesses that run a runtime against it: start it, and read the requests it got.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use serde_json::Value;

/// The mock model, playing `script` and logging each request under `tmp`.
pub struct Mock {
    child: Child,
    pub port: String,
    log: PathBuf,
}

impl Mock {
    pub fn start(tmp: &Path, script: &Path) -> Mock {
        let port_file = tmp.join("port");
        let log = tmp.join("requests.jsonl");
        let _ = std::fs::remove_file(&port_file);
        let _ = std::fs::remove_file(&log);
        let mock_py = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/mock_model.py");
        let child = Command::new("python3")
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
        Mock {
            child,
            port: port.trim().to_string(),
            log,
        }
    }

    /// Stop it; the bodies of the requests it got, in order, side requests (titles, summaries)
    /// left out.
    pub fn finish(mut self) -> Vec<Value> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|r| r["step"] != "side")
            .map(|r| r["body"].clone())
            .collect()
    }
}
