//! Writing to stdout: the `out!`/`outln!` macros every command prints with.

use std::io::Write as _;

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
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(s.as_bytes()).and_then(|_| stdout.flush()) {
        std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            2
        });
    }
}
