//! The words of a report: names of kinds and expressions, directions, and who a change
//! affects.

use crate::breaking::flow::Flow;
use crate::model::{Direction, TypeExpr, TypeKind};

pub(super) fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Record(_) => "an object",
        TypeKind::Enum(_) => "an enum",
        TypeKind::Union(_) => "a union",
        TypeKind::Alias(_) => "an alias",
    }
}

pub(super) fn expr_name(expr: &TypeExpr) -> String {
    match expr {
        TypeExpr::Any => "any JSON value".into(),
        TypeExpr::Null => "null".into(),
        TypeExpr::Bool => "a boolean".into(),
        TypeExpr::Integer(_) => "an integer".into(),
        TypeExpr::Number(_) => "a number".into(),
        TypeExpr::String(_) => "a string".into(),
        TypeExpr::Literal(literal) => format!("the constant {}", literal.to_json()),
        TypeExpr::Array(_) => "an array".into(),
        TypeExpr::Tuple(items) => format!("a tuple of {}", items.len()),
        TypeExpr::Map(_) => "a map".into(),
        TypeExpr::Ref(name) => format!("`{name}`"),
        TypeExpr::Nullable(inner) => format!("{} or null", expr_name(inner)),
    }
}

pub(super) fn direction_text(direction: &Direction) -> String {
    let side = |list: &Option<Vec<String>>| match list {
        None => "any party".to_owned(),
        Some(list) if list.is_empty() => "nobody".to_owned(),
        Some(list) => list.join(", "),
    };
    format!(
        "sent by {} to {}",
        side(&direction.sent_by),
        side(&direction.received_by)
    )
}

/// "old senders: a, b" — who still writes the value.
pub(super) fn senders(flow: &Flow) -> String {
    if flow.is_sent() {
        format!("old senders: {}", flow.senders())
    } else {
        "no party sends it".to_owned()
    }
}

/// "old receivers: a, b" — who still decodes the value.
pub(super) fn receivers(flow: &Flow) -> String {
    if flow.is_received() {
        format!("old receivers: {}", flow.receivers())
    } else {
        "no party decodes it".to_owned()
    }
}

/// "old senders may omit it: a, b", or why nobody is affected.
pub(super) fn peers_with(flow: &Flow, words: &str, sending: bool) -> String {
    let (affected, names) = if sending {
        (flow.is_sent(), flow.senders())
    } else {
        (flow.is_received(), flow.receivers())
    };
    if affected {
        format!("{words}: {names}")
    } else if sending {
        "no party sends it".to_owned()
    } else {
        "no party decodes it".to_owned()
    }
}

/// "sent by a, decoded by b" — both sides.
pub(super) fn peers(flow: &Flow) -> String {
    match (flow.is_sent(), flow.is_received()) {
        (false, false) => "no party sends or decodes it".to_owned(),
        (true, false) => format!("sent by {}, decoded by nobody", flow.senders()),
        (false, true) => format!("sent by nobody, decoded by {}", flow.receivers()),
        (true, true) => format!(
            "sent by {}, decoded by {}",
            flow.senders(),
            flow.receivers()
        ),
    }
}
