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
    check_directions(document, true)
}

/// Checks the direction keywords of a schema document, whoever wrote it:
/// `x-symgen-protocol.parties` maps names to descriptions, and every
/// `x-symgen-sent-by` / `x-symgen-received-by` is a list of distinct strings, each a
/// declared party. Without a `parties` table names are free, unless `require_parties`
/// (a protocol declared in Rust always says who its parties are). Returns the JSON
/// Pointer and message of the first fault.
pub fn check_directions(document: &Value, require_parties: bool) -> Result<(), (String, String)> {
    let empty = Map::new();
    let declared = match document.pointer("/x-symgen-protocol/parties") {
        None if require_parties => Some(&empty),
        None => None,
        Some(Value::Object(map)) => {
            if let Some((name, _)) = map.iter().find(|(_, d)| !d.is_string()) {
                return Err((
                    format!("/x-symgen-protocol/parties/{}", json_pointer::escape(name)),
                    "a party's value must be its description (a string)".into(),
                ));
            }
            Some(map)
        }
        Some(_) => {
            return Err((
                "/x-symgen-protocol/parties".into(),
                "`parties` must map each party name to its description".into(),
            ));
        }
    };
    walk(document, &mut String::new(), declared, 0)
}

/// How deep [`walk`] looks: far below the nesting any schema reader accepts (the model
/// refuses deeper documents with its own error).
const MAX_DEPTH: usize = 512;

fn walk(
    value: &Value,
    pointer: &mut String,
    declared: Option<&Map<String, Value>>,
    depth: usize,
) -> Result<(), (String, String)> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match value {
        Value::Object(map) => {
            for keyword in KEYWORDS {
                if let Some(list) = map.get(keyword) {
                    check_list(&format!("{pointer}/{keyword}"), list, declared)?;
                }
            }
            for (key, child) in map {
                if KEYWORDS.contains(&key.as_str()) {
                    continue;
                }
                let len = pointer.len();
                json_pointer::push(pointer, key);
                walk(child, pointer, declared, depth + 1)?;
                pointer.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                walk(child, pointer, declared, depth + 1)?;
                pointer.truncate(len);
            }
        }
        _ => {}
    }
    Ok(())
}

fn check_list(
    pointer: &str,
    list: &Value,
    declared: Option<&Map<String, Value>>,
) -> Result<(), (String, String)> {
    let fault = |at: String, message: String| Err((at, message));
    let Some(items) = list.as_array() else {
        return fault(
            pointer.into(),
            "must be a list of party names, e.g. [\"app\"]".into(),
        );
    };
    for (i, item) in items.iter().enumerate() {
        let at = format!("{pointer}/{i}");
        let Some(name) = item.as_str() else {
            return fault(at, "a party name must be a string".into());
        };
        if items[..i].contains(item) {
            return fault(at, format!("`{name}` is listed twice"));
        }
        match declared {
            Some(declared) if declared.is_empty() => {
                return fault(
                    at,
                    format!(
                        "`{name}` is not a party: the protocol declares no parties \
                         (`Protocol::with_party`, or `x-symgen-protocol.parties`)"
                    ),
                );
            }
            Some(declared) if !declared.contains_key(name) => {
                let known: Vec<&str> = declared.keys().map(String::as_str).collect();
                return fault(
                    at,
                    format!(
                        "`{name}` is not a party of this protocol (x-symgen-protocol.parties: {})",
                        known.join(", ")
                    ),
                );
            }
            _ => {}
        }
    }
    Ok(())
}
