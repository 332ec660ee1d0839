//! `#[serde(alias = "...")]` on the variants of an enum of strings, which schemars
//! leaves out: serde lists every name a variant is read by in the enum's variant names
//! (what `deserialize_enum` is given, and what its "unknown variant" error lists), each
//! variant's names in byte order, the variants in declaration order. Given the
//! canonical names (the schema's values, in declaration order), each other name is an
//! alias of the variant whose names it sits among; where two variants could own it, it
//! is refused rather than guessed.
//!
//! The aliases join the schema's values as `x-symgen-aliases` (alias → canonical), as
//! `string_enum!` writes them, so validators accept them and decoders read them as the
//! canonical value.

use serde_json::{Map, Value, json};

/// The string values an enum-of-strings schema lists (`enum`, or `oneOf` of `const`s),
/// when it is one: the canonical ones until aliases are added.
pub(crate) fn canonical_values(def: &Map<String, Value>) -> Option<Vec<String>> {
    let values: Vec<&Value> = match (def.get("enum"), def.get("oneOf")) {
        (Some(Value::Array(values)), _) => values.iter().collect(),
        (None, Some(Value::Array(alternatives))) => alternatives
            .iter()
            .map(|alt| alt.get("const"))
            .collect::<Option<_>>()?,
        _ => return None,
    };
    values
        .into_iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect::<Option<Vec<_>>>()
        .filter(|v| !v.is_empty())
}

/// Each alias in `names` (serde's variant names) paired with its canonical value, or
/// the first alias two variants could own. `canonical` in declaration order.
pub(crate) fn owners(
    names: &[&str],
    canonical: &[String],
) -> Result<Vec<(String, String)>, String> {
    // Where each canonical name sits among serde's names, in order.
    let mut at = Vec::with_capacity(canonical.len());
    for value in canonical {
        match names.iter().position(|n| n == value) {
            Some(position) if at.last().is_none_or(|last| position > *last) => at.push(position),
            // A value serde does not read by that name, or out of order: nothing to add.
            _ => return Ok(Vec::new()),
        }
    }
    let mut owned = Vec::new();
    // Before the first canonical name: all the first variant's (sorted below it).
    for name in &names[..at[0]] {
        owned.push(((*name).to_owned(), canonical[0].clone()));
    }
    for (i, window) in at.windows(2).enumerate() {
        let (low, high) = (&canonical[i], &canonical[i + 1]);
        let between = &names[window[0] + 1..window[1]];
        // The first `split` names are the lower variant's (above its name), the rest the
        // higher one's (below its name); each group in byte order.
        let splits: Vec<usize> = (0..=between.len())
            .filter(|&split| {
                let (mine, theirs) = between.split_at(split);
                ascending(mine)
                    && ascending(theirs)
                    && mine.iter().all(|n| *n > low.as_str())
                    && theirs.iter().all(|n| *n < high.as_str())
            })
            .collect();
        let [split] = splits[..] else {
            if let Some(name) = between.first() {
                return Err((*name).to_owned());
            }
            continue;
        };
        for (k, name) in between.iter().enumerate() {
            let owner = if k < split { low } else { high };
            owned.push(((*name).to_owned(), owner.clone()));
        }
    }
    let last = canonical.last().expect("not empty");
    for name in &names[at[at.len() - 1] + 1..] {
        owned.push(((*name).to_owned(), last.clone()));
    }
    Ok(owned)
}

fn ascending(names: &[&str]) -> bool {
    names.windows(2).all(|w| w[0] < w[1])
}

/// Adds `aliases` (alias → canonical) to the enum-of-strings schema `def`.
pub(crate) fn add(def: &mut Map<String, Value>, aliases: &[(String, String)]) {
    if aliases.is_empty() || def.contains_key("x-symgen-aliases") {
        return;
    }
    if let Some(Value::Array(values)) = def.get_mut("enum") {
        values.extend(aliases.iter().map(|(alias, _)| Value::from(alias.as_str())));
    } else if let Some(Value::Array(alternatives)) = def.get_mut("oneOf") {
        for (alias, canonical) in aliases {
            alternatives.push(json!({
                "const": alias,
                "description": format!("Input alias of `{canonical}`."),
                "deprecated": true
            }));
        }
    }
    let map: Map<String, Value> = aliases
        .iter()
        .map(|(alias, canonical)| (alias.clone(), Value::from(canonical.as_str())))
        .collect();
    def.insert("x-symgen-aliases".into(), Value::Object(map));
}

/// The names serde's "unknown variant" error lists (`` unknown variant `x`, expected one
/// of `a`, `b` ``), when `message` is one for `variant`.
pub(crate) fn listed_in_error(message: &str, variant: &str) -> Option<Vec<String>> {
    let expected = message.strip_prefix(&format!("unknown variant `{variant}`, expected "))?;
    let names = match expected.strip_prefix("one of ") {
        Some(list) => list
            .split(", ")
            .map(|n| n.strip_prefix('`')?.strip_suffix('`'))
            .collect::<Option<Vec<_>>>()?,
        None => match expected.split_once("` or `") {
            Some((a, b)) => vec![a.strip_prefix('`')?, b.strip_suffix('`')?],
            None => vec![expected.strip_prefix('`')?.strip_suffix('`')?],
        },
    };
    // A name holding a backquote or a comma cannot be read back from the message.
    (!names.iter().any(|n| n.contains('`') || n.contains(", ")))
        .then(|| names.into_iter().map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn each_alias_goes_to_the_variant_whose_names_it_sits_among() {
        // Warning {Warning, warn}, Error {Error}: "warn" sorts after "Warning" and after
        // "Error", so it cannot be Error's (which would list it after "Error").
        let names = ["Warning", "warn", "Error"];
        assert_eq!(
            owners(&names, &strings(&["Warning", "Error"])),
            Ok(vec![("warn".to_owned(), "Warning".to_owned())])
        );
        // An alias sorted before its variant's name, and one after the last variant.
        let names = ["A", "Alert", "Low", "z-last", "Zed"];
        assert_eq!(
            owners(&names, &strings(&["A", "Low", "Zed"])),
            Err("Alert".to_owned()),
            "`Alert` sorts after `A` and before `Low`: either could own it"
        );
        // Before the first name, between two (only the lower can own `c`: it sorts
        // after `Y`), after the last.
        let names = ["a", "b", "c", "Y", "z"];
        assert_eq!(
            owners(&names, &strings(&["b", "Y"])),
            Ok(vec![
                ("a".to_owned(), "b".to_owned()),
                ("c".to_owned(), "b".to_owned()),
                ("z".to_owned(), "Y".to_owned())
            ])
        );
        // No aliases, or a schema that is not serde's names: nothing.
        assert_eq!(owners(&["a", "b"], &strings(&["a", "b"])), Ok(Vec::new()));
        assert_eq!(owners(&["a", "b"], &strings(&["b", "a"])), Ok(Vec::new()));
    }

    #[test]
    fn the_names_of_an_unknown_variant_error_are_read_back() {
        let one = "unknown variant `p`, expected `A`";
        let two = "unknown variant `p`, expected `A` or `b`";
        let many = "unknown variant `p`, expected one of `A`, `b`, `C`";
        assert_eq!(listed_in_error(one, "p"), Some(strings(&["A"])));
        assert_eq!(listed_in_error(two, "p"), Some(strings(&["A", "b"])));
        assert_eq!(listed_in_error(many, "p"), Some(strings(&["A", "b", "C"])));
        assert_eq!(listed_in_error("missing field `x`", "p"), None);
    }
}
