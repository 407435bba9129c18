//! stdin and stdout for the protocol.
//!
//! tokio's `stdin()` and `stdout()` do every read and write on a thread of its blocking pool, so
//! a keystroke crosses threads twice more than it must: the pool thread wakes for the read, then
//! wakes the runtime's thread; the runtime's thread wakes a pool thread for the write. On an idle
//! machine each wake-up costs tens of microseconds, more than the analysis of a keystroke. When
//! stdin and stdout are pipes (what most editors give a server) or sockets (libuv's child
//! processes, hence VS Code and Neovim), they are read and written here on the runtime's own
//! thread instead, through epoll, in non-blocking mode. Anything else (a terminal, a file) goes
//! through tokio's blocking pool as before.
//!
//! Non-blocking mode belongs to the open file, which a copy of the descriptor shares: stdout is
//! left alone when stderr is the same pipe or socket, so that a log line never meets `EAGAIN`.

use tokio::io::{AsyncRead, AsyncWrite};
use tracing::debug;

/// The protocol's input.
pub fn input() -> Box<dyn AsyncRead + Unpin + Send> {
    #[cfg(unix)]
    match unix::reader() {
        Ok(r) => return r,
        Err(why) => debug!("stdin through the blocking pool: {why}"),
    }
    Box::new(tokio::io::stdin())
}

/// The protocol's output.
pub fn output() -> Box<dyn AsyncWrite + Unpin + Send> {
    #[cfg(unix)]
    match unix::writer() {
        Ok(w) => return w,
        Err(why) => debug!("stdout through the blocking pool: {why}"),
    }
    Box::new(tokio::io::stdout())
}

#[cfg(unix)]
mod unix {
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, OwnedFd};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    use tokio::io::{AsyncRead, AsyncWrite};
    use tokio::net::unix::pipe;

    enum Kind {
        Pipe,
        Socket,
    }

    /// A copy of `fd` with its kind, when it is a pipe or a socket.
    fn open(fd: impl AsFd) -> io::Result<(File, Kind)> {
        let file = File::from(fd.as_fd().try_clone_to_owned()?);
        let kind = file.metadata()?.file_type();
        if kind.is_fifo() {
            Ok((file, Kind::Pipe))
        } else if kind.is_socket() {
            Ok((file, Kind::Socket))
        } else {
            Err(io::Error::other("neither a pipe nor a socket"))
        }
    }

    fn socket(file: File) -> io::Result<tokio::net::UnixStream> {
        let stream = std::os::unix::net::UnixStream::from(OwnedFd::from(file));
        stream.set_nonblocking(true)?;
        tokio::net::UnixStream::from_std(stream)
    }

    pub fn reader() -> io::Result<Box<dyn AsyncRead + Unpin + Send>> {
        Ok(match open(io::stdin())? {
            (file, Kind::Pipe) => Box::new(pipe::Receiver::from_file(file)?),
            (file, Kind::Socket) => Box::new(socket(file)?),
        })
    }

    pub fn writer() -> io::Result<Box<dyn AsyncWrite + Unpin + Send>> {
        let (file, kind) = open(io::stdout())?;
        let out = file.metadata()?;
        if let Ok(err) = File::from(io::stderr().as_fd().try_clone_to_owned()?).metadata()
            && (err.dev(), err.ino()) == (out.dev(), out.ino())
        {
            return Err(io::Error::other("stderr is the same file"));
        }
        Ok(match kind {
            Kind::Pipe => Box::new(pipe::Sender::from_file(file)?),
            Kind::Socket => Box::new(socket(file)?),
        })
    }
}
