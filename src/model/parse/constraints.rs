//! Cross-field rules ([`Constraint`]) among an object's validation-only `allOf` members.

use super::*;

/// The cross-field rules among an object's validation-only `allOf` members (see
/// [`Constraint`]); other validation stays ignored.
pub(super) fn constraints_of(object: &Map<String, Value>) -> Vec<Constraint> {
    let mut out = Vec::new();
    let members = object
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for member in members {
        if let Some(fields) = member
            .get("anyOf")
            .and_then(Value::as_array)
            .and_then(|alternatives| alternatives.iter().map(single_required).collect())
        {
            out.push(Constraint::AtLeastOneOf(fields));
        }
        if let (Some(condition), Some(then)) = (member.get("if"), member.get("then")) {
            let when = string_list(condition.get("required"));
            let props = condition.get("properties").and_then(Value::as_object);
            if let ([when], Some(props)) = (when.as_slice(), props) {
                let values: Option<Vec<Literal>> =
                    props.get(*when).and_then(|test| match test.get("const") {
                        Some(value) => literal_of(value).map(|l| vec![l]),
                        None => test
                            .get("enum")
                            .and_then(Value::as_array)
                            .and_then(|values| values.iter().map(literal_of).collect()),
                    });
                if let Some(values) = values {
                    for field in string_list(then.get("required")) {
                        out.push(Constraint::RequiredWhen {
                            field: field.to_owned(),
                            when: (*when).to_owned(),
                            values: values.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The one field an `anyOf` alternative requires (`{required: [a]}`, optionally with
/// `properties: {a: {not: {type: null}}}`), if that is all it says.
fn single_required(alternative: &Value) -> Option<String> {
    let object = alternative.as_object()?;
    let [field]: [&str; 1] = string_list(object.get("required")).try_into().ok()?;
    let plain = object.keys().all(|k| k == "required" || k == "properties");
    let props_ok = object.get("properties").is_none_or(|p| {
        p.as_object()
            .is_some_and(|p| p.len() == 1 && p.contains_key(field))
    });
    (plain && props_ok).then(|| field.to_owned())
}
