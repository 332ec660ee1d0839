//! Marker types per message of a union that pairs requests with replies (rule R8).

use super::*;

/// The marker extension of a union that pairs requests with replies (rule R8).
pub(super) fn markers(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    owner: &str,
    nested_owner: &str,
    body: &BodyPlan,
) -> Result<Option<String>, model::Error> {
    let pairs = body
        .cases
        .iter()
        .any(|c| !matches!(c.variant.reply, Reply::Unspecified));
    if !pairs || body.cases.iter().any(|c| c.tag.is_none()) {
        return Ok(None);
    }
    // Inside the namespace the marker names shadow everything: qualify all types.
    let all: Vec<String> = ctx.names.values().cloned().collect();
    let qualified = ctx.nested(all);
    let names = marker_names(
        &body
            .cases
            .iter()
            .map(|c| c.variant.clone())
            .collect::<Vec<_>>(),
    );
    let mut markers = Vec::new();
    for (case, marker_name) in body.cases.iter().zip(names) {
        let payload = match (&case.variant.payload, &case.value) {
            (Payload::Unit, _) => "NoContent".to_owned(),
            (Payload::Fields(_), Some(value)) => format!("{}.{nested_owner}.{value}", ctx.module),
            (Payload::Type(expr), _) => qualified.swift_type(expr, &case.variant.pointer)?,
            (Payload::Content(field), _) => content_type(&qualified, field)?,
            (Payload::Fields(_), None) => "NoContent".to_owned(),
        };
        let (protocol, reply) = match &case.variant.reply {
            Reply::Data(expr) => (
                "WireRequest",
                Some(match expr {
                    TypeExpr::Any => "JSONValue".to_owned(),
                    e => qualified.swift_type(e, &case.variant.pointer)?,
                }),
            ),
            _ => ("WireMessage", None),
        };
        let pad = " ".repeat(6);
        let mut lines = vec![format!("{pad}public typealias Payload = {payload}\n")];
        if let Some(reply) = reply {
            lines.push(format!("{pad}public typealias Reply = {reply}\n"));
        }
        lines.push(format!(
            "{pad}public static let tag = {}\n",
            case.tag
                .as_ref()
                .map(types::literal_value)
                .unwrap_or_default()
        ));
        markers.push(Marker {
            docs: doc_comment(case_doc(&case.variant).as_deref(), 4),
            name: marker_name,
            protocol,
            lines: lines
                .into_iter()
                .map(|l| layout::guarded(l, 6).trim_end().to_owned())
                .collect(),
        });
    }
    let template = MarkersTemplate {
        owner: owner.to_owned(),
        docs: doc_comment(
            Some(&format!(
                "One marker type per message of `{owner}`, with its tag, payload type and, \
                 for requests, reply type (rule R8)."
            )),
            2,
        ),
        name: "Messages".to_owned(),
        markers,
    };
    template
        .render()
        .map(Some)
        .map_err(|err| ctx.error(&named.pointer, err.to_string()))
}

/// Runtime names marker types must not shadow (they are used inside the namespace).
pub(super) const MARKER_RESERVED: &[&str] =
    &["JSONValue", "NoContent", "WireMessage", "WireRequest"];

/// The marker type names of a union's variants, in variant order.
pub fn marker_names(variants: &[model::Variant]) -> Vec<String> {
    let mut scope = Scope::with_reserved(MARKER_RESERVED);
    variants
        .iter()
        .map(|v| scope.claim(naming::type_name(&v.name)))
        .collect()
}

/// Whether a union gets marker types (rule R8): it has reply information and string
/// tags.
pub fn has_markers(union: &Union) -> bool {
    union.has_replies()
        && union
            .variants
            .iter()
            .all(|v| matches!(v.tag, Some(Literal::String(_))))
}
