//! The dotc language server (`dotc lsp`): the analyses of `dotc-lang` and `dotc-runtime` served
//! over the Language Server Protocol. Only this crate knows LSP types.
