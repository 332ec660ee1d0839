//! The direction keywords: `x-symgen-sent-by` / `x-symgen-received-by` (lists of party
//! names, on union variants and root definitions) and `x-symgen-protocol.parties` (an
//! object from party name to description). Their shapes are checked before the model is
//! built, so a malformed list is a located error rather than a silently lost fact.

use serde_json::{Map, Value};

use super::Result;
use crate::model::{Error, Party};

const KEYWORDS: [&str; 2] = ["x-symgen-sent-by", "x-symgen-received-by"];

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

/// Checks every direction keyword in `document`: a list of distinct strings, each a
/// declared party when the document declares parties.
pub(super) fn check(file: &str, document: &Value) -> Result<()> {
    let declared = match document.pointer("/x-symgen-protocol/parties") {
        None => None,
        Some(Value::Object(map)) => {
            for (name, description) in map {
                if !description.is_string() {
                    let pointer = format!(
                        "/x-symgen-protocol/parties/{}",
                        symgen_wire::json_pointer::escape(name)
                    );
                    return Err(Error::new(
                        file,
                        &pointer,
                        "a party's value must be its description (a string)",
                    ));
                }
            }
            Some(map)
        }
        Some(_) => {
            return Err(Error::new(
                file,
                "/x-symgen-protocol/parties",
                "`parties` must map each party name to its description",
            ));
        }
    };
    walk(file, document, &mut String::new(), declared, 0)
}

fn walk(
    file: &str,
    value: &Value,
    pointer: &mut String,
    declared: Option<&Map<String, Value>>,
    depth: usize,
) -> Result<()> {
    // The model refuses deeper documents with its own error; stop looking here.
    if depth > super::MAX_DEPTH * 4 {
        return Ok(());
    }
    match value {
        Value::Object(map) => {
            for keyword in KEYWORDS {
                if let Some(list) = map.get(keyword) {
                    let at = format!("{pointer}/{keyword}");
                    check_list(file, &at, list, declared)?;
                }
            }
            for (key, child) in map {
                if KEYWORDS.contains(&key.as_str()) {
                    continue;
                }
                let len = pointer.len();
                symgen_wire::json_pointer::push(pointer, key);
                walk(file, child, pointer, declared, depth + 1)?;
                pointer.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                walk(file, child, pointer, declared, depth + 1)?;
                pointer.truncate(len);
            }
        }
        _ => {}
    }
    Ok(())
}

fn check_list(
    file: &str,
    pointer: &str,
    list: &Value,
    declared: Option<&Map<String, Value>>,
) -> Result<()> {
    let Some(items) = list.as_array() else {
        return Err(Error::new(
            file,
            pointer,
            "must be a list of party names, e.g. [\"app\"]",
        ));
    };
    for (i, item) in items.iter().enumerate() {
        let at = format!("{pointer}/{i}");
        let Some(name) = item.as_str() else {
            return Err(Error::new(file, &at, "a party name must be a string"));
        };
        if items[..i].contains(item) {
            return Err(Error::new(file, &at, format!("`{name}` is listed twice")));
        }
        if let Some(declared) = declared
            && !declared.contains_key(name)
        {
            let known: Vec<&str> = declared.keys().map(String::as_str).collect();
            return Err(Error::new(
                file,
                &at,
                format!(
                    "`{name}` is not a party of this protocol (x-symgen-protocol.parties: {})",
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(())
}
