//! Running `dotc` as a child process with its peak memory and a deadline.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The folder of this corpus.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

/// A finished `dotc` run.
#[derive(Debug)]
pub struct Run {
    /// The exit code; `None` when a signal ended it (see `signal`).
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident set size of the child, in bytes (`ru_maxrss` from `wait4`).
    pub peak_rss: u64,
    /// True when the deadline passed and the child was killed.
    pub timed_out: bool,
}

impl Run {
    pub fn peak_mb(&self) -> u64 {
        self.peak_rss / (1024 * 1024)
    }
}

/// Run `dotc args` in `dir` with `stdin` as its standard input, killed after `deadline`.
///
/// Counted-work limits, not clocks, decide results in dotc; the deadline here only keeps a
/// runaway from hanging the test run, and a test asserts `!timed_out`.
// The child is reaped by `wait4` (for its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn dotc_with(args: &[&str], dir: &Path, stdin: &[u8], deadline: Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dotc"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dotc starts");
    let pid = child.id() as libc::pid_t;
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let mut timed_out = false;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 fills it in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our own child; status and usage are valid for writes.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            break (status, usage);
        }
        assert!(got == 0, "wait4 failed: {}", std::io::Error::last_os_error());
        if start.elapsed() > deadline && !timed_out {
            timed_out = true;
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = feeder.join();
    let stdout = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else {
        (None, libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)))
    };
    // ru_maxrss is in kilobytes on Linux.
    let peak_rss = usage.ru_maxrss.max(0) as u64 * 1024;
    Run { code, signal, stdout, stderr, peak_rss, timed_out }
}

/// Run `dotc args` in `dir` with empty input and a 60-second deadline.
pub fn dotc(args: &[&str], dir: &Path) -> Run {
    dotc_with(args, dir, b"", Duration::from_secs(60))
}
