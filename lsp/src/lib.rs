//! The dotc language server (`dotc lsp`): the analyses of `dotc-lang` and `dotc-runtime` served
//! over the Language Server Protocol. Only this crate knows LSP types.
//!
//! - [`workspace`]: the open documents, each with its version, line index and cached analysis
//!   (the language's checks, the rules-aware scenario checks, and a game log's replay).
//! - [`replay_view`]: what hovers and inlay hints read of a game log's replay.
//! - [`line_index`]: byte offsets to lines and UTF-16 columns, used only at the protocol edge.
//! - [`lex`]: a forgiving tokenizer for questions about half-typed text.
//! - [`campaign`]: hover, completion, definition and rename in campaign files (Ch14).
//! - the features, each a plain function of a document: [`completion`], [`hover`],
//!   [`navigate`] (definition, references, rename), [`outline`] (symbols, folding,
//!   formatting), [`semantic`] (semantic tokens: whole, by range, by delta), [`hints`] (inlay
//!   hints, quick fixes), [`convert`] (diagnostics).
//! - [`server`]: the `tower-lsp-server` backend that routes requests to them, catching panics.
//! - [`stdio`]: the framing in front of it: malformed messages answered per JSON-RPC, exit codes.
//! - [`trace`]: a timing trace to standard error, on with `DOTC_LSP_TRACE=1` (issue 16).

pub mod campaign;
pub mod completion;
pub mod convert;
pub mod hints;
pub mod hover;
pub mod lex;
pub mod line_index;
pub mod navigate;
pub mod outline;
pub mod replay_view;
pub mod semantic;
pub mod server;
pub mod stdio;
pub mod trace;
pub mod workspace;

use std::process::ExitCode;

pub use server::Backend;
/// The protocol types, for callers of the [`workspace`] API (the fuzz target).
pub use tower_lsp_server::ls_types;

/// Serve the protocol on standard input and output until the client says `exit` or closes its
/// end: exit code 0 if it asked for `shutdown` first, 1 otherwise (see [`stdio`]).
pub fn run_stdio() -> Result<ExitCode, String> {
    few_arenas();
    let runtime = runtime().map_err(|e| format!("cannot start the language server: {e}"))?;
    let code = runtime.block_on(stdio::serve(std::io::stdin(), std::io::stdout()));
    // A replay still running off the editing path is of no use any more: do not wait for it.
    runtime.shutdown_background();
    Ok(code)
}

/// The server's runtime: one thread that applies edits and answers requests, and tokio's
/// blocking threads for the work done off it (whole-file semantic tokens, audits taken up or
/// replayed, memory freed), which run [`BACKGROUND_NICE`] steps less favoured than the thread
/// that builds the runtime.
///
/// On two cores that work, the editor and the server's own thread all want a core at once
/// after a keystroke: with the same priority the scheduler let an audit being taken up, or a
/// whole file's tokens, keep the core while the keystroke or a hover waited several
/// milliseconds for one (issue 16: the hovers after the audit at p99, the keystrokes under
/// whole-file tokens). Priority decides only who runs first, never a result.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    let background = nice_of_this_thread().saturating_add(BACKGROUND_NICE).min(19);
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        // A blocking thread may be started by another one, whose niceness it inherits: the
        // level is set, not added to.
        .on_thread_start(move || set_nice_of_this_thread(background))
        .build()
}

/// How much nicer than the server's own thread its blocking threads are (see [`runtime`]).
pub const BACKGROUND_NICE: i32 = 10;

/// The niceness of the calling thread (Linux sets it per thread).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn nice_of_this_thread() -> i32 {
    // SAFETY: `gettid` and `getpriority` only read the calling thread's id and priority.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn nice_of_this_thread() -> i32 {
    0
}

/// Set the calling thread's niceness (a failure, such as a lower one refused, leaves it as is).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_nice_of_this_thread(nice: i32) {
    // SAFETY: `setpriority` on the calling thread's own id changes only its scheduling weight.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, nice);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_nice_of_this_thread(_nice: i32) {}

/// Two glibc malloc arenas for the whole server. By default glibc gives each thread that
/// allocates at once with another an arena of its own, up to eight per core, and pages freed in
/// one arena stay with it: the blocking threads that make semantic tokens, take up audits and
/// replay whole logs each kept hundreds of megabytes the others could not use (issue 16). Only
/// where memory goes changes, never a result.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn few_arenas() {
    // SAFETY: `mallopt` sets a tunable of the allocator; called before any other thread starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn few_arenas() {}

#[cfg(test)]
mod tests {
    /// The blocking threads run at the server's thread's niceness plus [`super::BACKGROUND_NICE`]
    /// (at most 19), also those a blocking thread starts; the server's own thread is left as it
    /// was (issue 16).
    #[test]
    fn blocking_threads_are_less_favoured_than_the_servers_thread() {
        let own = super::nice_of_this_thread();
        let runtime = super::runtime().expect("a runtime");
        let (first, nested) = runtime.block_on(async {
            let first = tokio::task::spawn_blocking(super::nice_of_this_thread).await.expect("a thread");
            // Asked for on a blocking thread: one started from there inherits its niceness.
            let nested = tokio::task::spawn_blocking(|| {
                let handle = tokio::runtime::Handle::current();
                std::thread::sleep(std::time::Duration::from_millis(1));
                handle.block_on(tokio::task::spawn_blocking(super::nice_of_this_thread)).expect("a thread")
            })
            .await
            .expect("a thread");
            (first, nested)
        });
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            let want = (own + super::BACKGROUND_NICE).min(19);
            assert_eq!((first, nested), (want, want));
        }
        assert_eq!(super::nice_of_this_thread(), own);
    }
}
