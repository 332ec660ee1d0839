//! serde's verdict on a message as one root of a protocol: the typed decode alone (a
//! round trip would also re-encode). The reference the validator's paths are held to by
//! `validate_faults.rs` and the `validate` fuzz target (fuzz/fuzz_targets/validate.rs).

use symgen::Protocol;
use symgen::validate::Outcome;

/// `None` when the protocol has no root called `root`.
pub fn serde_verdict(protocol: &Protocol, root: &str, text: &str) -> Option<Outcome> {
    Some(match protocol.root_named(root)?.check(text) {
        Ok(accepted) if accepted.unknown => Outcome::Unknown,
        Ok(_) => Outcome::Valid,
        Err(_) => Outcome::Invalid,
    })
}
