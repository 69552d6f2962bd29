//! The numbers class of the hostile corpus (see main.rs); its inputs are in `tests/hostile/numbers/`.
