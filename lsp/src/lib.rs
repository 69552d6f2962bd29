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
pub mod workspace;

use std::process::ExitCode;

pub use server::Backend;
/// The protocol types, for callers of the [`workspace`] API (the fuzz target).
pub use tower_lsp_server::ls_types;

/// Serve the protocol on standard input and output until the client says `exit` or closes its
/// end: exit code 0 if it asked for `shutdown` first, 1 otherwise (see [`stdio`]).
pub fn run_stdio() -> Result<ExitCode, String> {
    few_arenas();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the language server: {e}"))?;
    let code = runtime.block_on(stdio::serve(std::io::stdin(), std::io::stdout()));
    // A replay still running off the editing path is of no use any more: do not wait for it.
    runtime.shutdown_background();
    Ok(code)
}

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
