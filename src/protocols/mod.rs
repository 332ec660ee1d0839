//! The protocols symgen ships, one module each, as specified in
//! `../shared/protocol-catalog.md`, and the registry that lists them all.

pub mod ck3lens;
pub mod dialectic;
pub mod symposium;
pub mod taskspace_state;
pub mod worker_sideband;

use crate::schema::ProtocolDef;

/// Every built-in protocol, in catalog order (P1 .. P5).
pub fn registry() -> Vec<ProtocolDef> {
    vec![
        symposium::protocol(),
        taskspace_state::protocol(),
        dialectic::protocol(),
        worker_sideband::protocol(),
        ck3lens::protocol(),
    ]
}

/// The built-in protocol with this id (`symposium`) or catalog code (`P1`).
pub fn find(name: &str) -> Option<ProtocolDef> {
    registry()
        .into_iter()
        .find(|p| p.id == name || p.code.eq_ignore_ascii_case(name))
}
