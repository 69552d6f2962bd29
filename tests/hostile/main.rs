//! The hostile-input corpus (issue 15): what a stranger's file, script or editor can throw at dotc.
//!
//! One module a class, each with its corpus in the folder of the same name:
//! - `scripts`: scenario scripts that loop, print, hoard memory or reach for what the sandbox
//!   leaves out;
//! - `files`: what the CLI reads and writes (sizes, devices, FIFOs, invalid UTF-8, long tokens,
//!   symlinks, read-only files, interrupted writes, closed pipes);
//! - `numbers`: absurd values in every statement that takes a number;
//! - `lsp`: malformed JSON-RPC and line ends, against the real `dotc lsp` process.
//!
//! Every test asserts the exact located diagnostic and, where it matters, that the child process
//! stayed within its time and memory (its peak RSS, read from `wait4`).

mod support;

mod files;
mod lsp;
mod numbers;
mod scripts;
