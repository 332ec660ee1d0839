//! The committed schemas in `schema/`, embedded in the binary: the runtime checks exactly
//! the committed contract. `symgen check` guarantees they equal what the Rust types emit,
//! which is what lets the validator decide validity with serde (see `validator.rs`).

/// `(protocol id, schema document text)` for every built-in protocol.
pub const SCHEMAS: &[(&str, &str)] = &[
    (
        "symposium",
        include_str!("../../schema/symposium.schema.json"),
    ),
    (
        "taskspace-state",
        include_str!("../../schema/taskspace-state.schema.json"),
    ),
    (
        "dialectic",
        include_str!("../../schema/dialectic.schema.json"),
    ),
    (
        "worker-sideband",
        include_str!("../../schema/worker-sideband.schema.json"),
    ),
    ("ck3lens", include_str!("../../schema/ck3lens.schema.json")),
];

/// The embedded schema text of protocol `id`.
pub fn schema_text(id: &str) -> Option<&'static str> {
    SCHEMAS
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use crate::protocols::registry;
    use crate::schema::render_protocol;

    #[test]
    fn every_protocol_is_embedded_exactly_as_its_types_emit_it() {
        let protocols = registry();
        assert_eq!(protocols.len(), super::SCHEMAS.len());
        for protocol in protocols {
            let embedded = super::schema_text(protocol.id)
                .unwrap_or_else(|| panic!("{} is not embedded", protocol.id));
            assert!(
                embedded == render_protocol(&protocol).contents,
                "schema/{} differs from what the Rust types emit: run `symgen schema`",
                protocol.file_name()
            );
        }
    }
}
