//! Who sends and who receives each message: the `x-symgen-sent-by` and
//! `x-symgen-received-by` keywords (lists of party names) on union variants and root
//! definitions, and the check that every name is a party the protocol declares
//! (`x-symgen-protocol.parties`).

use serde_json::{Map, Value, json};

use crate::Protocol;
use crate::json_pointer;

/// The keywords, in the order they are written.
pub(crate) const KEYWORDS: [&str; 2] = ["x-symgen-sent-by", "x-symgen-received-by"];

/// Writes the direction declared for each root ([`Protocol::sent_by`]) on its definition.
pub(super) fn annotate_roots(protocol: &Protocol, defs: &mut Map<String, Value>) {
    for root in protocol.roots() {
        let Some(Value::Object(def)) = defs.get_mut(root.name()) else {
            continue;
        };
        for (keyword, parties) in KEYWORDS.iter().zip([root.sent_by(), root.received_by()]) {
            if let Some(parties) = parties {
                def.insert((*keyword).into(), json!(parties));
            }
        }
    }
}

/// Every party name in `document` must be declared, and declared parties must have
/// well-formed, distinct names. Returns the JSON Pointer and message of the first fault.
pub(super) fn check(protocol: &Protocol, document: &Value) -> Result<(), (String, String)> {
    if let Some(misuse) = protocol.misuse() {
        return Err(("/x-symgen-protocol".into(), misuse.into()));
    }
    let declared: Vec<&str> = protocol.parties().iter().map(|p| p.name.as_str()).collect();
    for (i, name) in declared.iter().enumerate() {
        let pointer = format!("/x-symgen-protocol/parties/{}", json_pointer::escape(name));
        let well_formed = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            && name.as_bytes()[0].is_ascii_lowercase();
        if !well_formed {
            return Err((
                pointer,
                format!(
                    "party name {name:?} must be lowercase letters, digits and `_`, starting \
                     with a letter (e.g. `mcp_server`)"
                ),
            ));
        }
        if declared[..i].contains(name) {
            return Err((pointer, format!("party `{name}` is declared twice")));
        }
    }
    let mut fault = None;
    visit(
        document,
        &mut String::new(),
        &mut |pointer, keyword, parties| {
            if fault.is_some() {
                return;
            }
            for (i, party) in parties.iter().enumerate() {
                let party = party.as_str().unwrap_or_default();
                if !declared.contains(&party) {
                    let known = if declared.is_empty() {
                        "the protocol declares no parties: add `Protocol::with_party`".to_owned()
                    } else {
                        format!("the parties are {}", declared.join(", "))
                    };
                    fault = Some((
                        format!("{pointer}/{keyword}/{i}"),
                        format!("`{party}` is not a party of this protocol; {known}"),
                    ));
                    return;
                }
            }
        },
    );
    fault.map_or(Ok(()), Err)
}

/// Calls `found(pointer, keyword, parties)` for every direction keyword in `value`.
fn visit(value: &Value, pointer: &mut String, found: &mut impl FnMut(&str, &str, &[Value])) {
    match value {
        Value::Object(map) => {
            for keyword in KEYWORDS {
                if let Some(Value::Array(parties)) = map.get(keyword) {
                    found(pointer, keyword, parties);
                }
            }
            for (key, child) in map {
                let len = pointer.len();
                json_pointer::push(pointer, key);
                visit(child, pointer, found);
                pointer.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                visit(child, pointer, found);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}
