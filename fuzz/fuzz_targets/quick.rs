//! The quick decode (`symgen_wire::quick`) on arbitrary text, for every type of the zoo
//! (tests/it/support/zoo.rs): it never accepts what serde_json refuses, never decodes a
//! value serde_json decodes differently, and is never sure of a refusal serde_json does
//! not make.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/support/zoo.rs"]
mod zoo;

static KINDS: LazyLock<Vec<zoo::Kind>> = LazyLock::new(zoo::kinds);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for kind in KINDS.iter() {
        if let Err(why) = (kind.compare)(text) {
            panic!("{}: {why}", kind.name);
        }
    }
});
