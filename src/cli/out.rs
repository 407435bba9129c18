//! Writing to stdout: the `out!`/`outln!` macros every command prints with.

use std::io::Write as _;
use std::sync::RwLock;

/// The secrets of the workspace a command read (see `analysis::secret`), hidden in all it prints.
static HIDDEN: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Hide `secrets` in everything printed from now on.
pub fn hide(secrets: &[&str]) {
    if let Ok(mut h) = HIDDEN.write() {
        h.extend(secrets.iter().map(|s| s.to_string()));
    }
}

/// `s` with the hidden secrets masked.
pub fn masked(s: &str) -> std::borrow::Cow<'_, str> {
    match HIDDEN.read() {
        Ok(h) if !h.is_empty() => {
            let secrets: Vec<&str> = h.iter().map(String::as_str).collect();
            std::borrow::Cow::Owned(crate::analysis::secret::mask(s, &secrets))
        }
        _ => std::borrow::Cow::Borrowed(s),
    }
}

/// `print!` to stdout that ends the process quietly when stdout is closed early
/// (`agent-lsp explain | head`), instead of panicking on the broken pipe.
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::out::write_stdout(&format!($($t)*)) };
}

/// `println!` on [`out!`].
macro_rules! outln {
    () => { $crate::cli::out::write_stdout("\n") };
    ($($t:tt)*) => { $crate::cli::out::write_stdout(&format!("{}\n", format_args!($($t)*))) };
}

/// Write to stdout; a reader that went away (a closed pipe) ends the process with status 0, as
/// for `head`, and any other failure with 2.
pub fn write_stdout(s: &str) {
    let s = masked(s);
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(s.as_bytes()).and_then(|_| stdout.flush()) {
        std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            2
        });
    }
}
