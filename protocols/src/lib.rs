//! The five protocols symgen ships (docs/protocols.md: their programs, rules and drifts),
//! declared with `symgen-wire`: symgen's first user. Each module declares one
//! protocol's types and its [`Protocol`]; [`all`] lists them in catalog order.
//!
//! This crate depends only on serde, serde_json, schemars and symgen-wire. The symgen
//! command line for this repository (`xtask/`) registers [`all`] through the toolkit's
//! public API, as any team registers its own protocols.

pub mod ck3lens;
pub mod dialectic;
pub mod symposium;
pub mod taskspace_state;
pub mod worker_sideband;

use symgen_wire::Protocol;

/// Every protocol, in catalog order (P1 .. P5).
pub fn all() -> Vec<Protocol> {
    vec![
        symposium::protocol(),
        taskspace_state::protocol(),
        dialectic::protocol(),
        worker_sideband::protocol(),
        ck3lens::protocol(),
    ]
}

/// The protocol with this id (`symposium`) or code (`P1`).
pub fn find(name: &str) -> Option<Protocol> {
    all().into_iter().find(|p| p.is_named(name))
}
