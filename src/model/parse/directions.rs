//! The direction keywords: `x-symgen-sent-by` / `x-symgen-received-by` (lists of party
//! names, on union variants and root definitions) and `x-symgen-protocol.parties` (an
//! object from party name to description). Their shapes are checked before the model is
//! built (by the same check the wire crate runs on the schemas it writes), so a
//! malformed list is a located error rather than a silently lost fact.

use serde_json::Value;

use super::Result;
use crate::model::{Error, Party};

/// The declared parties of a protocol header (its shape is checked by [`check`]).
pub(super) fn parties(header: &Value) -> Vec<Party> {
    let Some(Value::Object(map)) = header.get("parties") else {
        return Vec::new();
    };
    map.iter()
        .map(|(name, description)| Party {
            name: name.clone(),
            description: description.as_str().unwrap_or_default().to_owned(),
        })
        .collect()
}

/// Checks every direction keyword in `document` (see
/// [`symgen_wire::schema::check_directions`]); names are free when the document
/// declares no parties.
pub(super) fn check(file: &str, document: &Value) -> Result<()> {
    symgen_wire::schema::check_directions(document, false)
        .map_err(|(pointer, message)| Error::new(file, &pointer, message))
}
