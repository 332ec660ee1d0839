//! The command line with the seed protocols registered (the `xtask` binary), end to
//! end: the drift check, `validate` on the protocols' messages, and hostile input. These
//! live with the `xtask` package because only its own tests can run its binary; the
//! toolkit's other integration tests are in `tests/it/`.

mod check;
mod hostile;
mod ownership;
mod support;
mod validate;
