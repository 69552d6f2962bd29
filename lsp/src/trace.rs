//! A timing trace of the server, for finding what a slow keystroke or hover waited for (issue
//! 16). Off unless the environment has `DOTC_LSP_TRACE=1`; then each traced stretch writes one
//! line to standard error when it ends: the time since the server started and the stretch's
//! length (both in milliseconds), the thread, and what it was. Nothing the server answers
//! depends on it.

use std::io::Write as _;
use std::sync::OnceLock;
use std::time::Instant;

/// Whether the trace is on (read once).
pub fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("DOTC_LSP_TRACE").is_some_and(|v| v == "1"))
}

fn since_start(at: Instant) -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    at.saturating_duration_since(start).as_secs_f64() * 1000.0
}

/// Write one line of the trace: a stretch that began at `start` and ends now.
pub fn line(start: Instant, what: &str) {
    let end = Instant::now();
    let thread = std::thread::current();
    let name = thread.name().map_or_else(|| format!("{:?}", thread.id()), str::to_string);
    // Not `eprintln!`, which panics when standard error cannot be written to.
    let _ = writeln!(
        std::io::stderr(),
        "trace {:.3} {:.3} {name} {what}",
        since_start(start),
        end.saturating_duration_since(start).as_secs_f64() * 1000.0
    );
}

/// A stretch that is traced when it ends (dropped), if the trace is on.
pub struct Stretch {
    start: Option<Instant>,
    what: &'static str,
}

impl Stretch {
    pub fn new(what: &'static str) -> Stretch {
        Stretch { start: on().then(Instant::now), what }
    }
}

impl Drop for Stretch {
    fn drop(&mut self) {
        if let Some(start) = self.start {
            line(start, self.what);
        }
    }
}
