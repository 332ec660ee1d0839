//! Adjacently tagged unions: `{"t": "a", "c": {...}}`, and the tag/content switches
//! envelopes share.

use super::*;

/// An adjacently tagged union without shared fields: `{"t": "a", "c": {...}}`.
pub(super) fn adjacent_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
    tag_key: &str,
    content_key: &str,
) -> Result<String, model::Error> {
    let mut keys = Scope::default();
    let tag_case = keys.claim(naming::member_name(tag_key));
    let content_case = keys.claim(naming::member_name(content_key));
    let coding_keys = vec![
        coding_key(&tag_case, tag_key),
        coding_key(&content_case, content_key),
    ];
    let tag_ref = format!(".{}", naming::escaped(&tag_case));
    let content_ref = format!(".{}", naming::escaped(&content_case));
    let mut decode = Lines::at(4);
    decode.line("let container = try decoder.container(keyedBy: CodingKeys.self)");
    decode.call(
        "let tag = try container.decodeRequired(",
        &[
            format!("{}.self", body.tag_type),
            format!("forKey: {tag_ref}"),
        ],
        ")",
    );
    adjacent_decode_switch(&mut decode, body, "self", &tag_ref, &content_ref, tag_key);
    let mut encode = Lines::at(4);
    encode.line("var container = encoder.container(keyedBy: CodingKeys.self)");
    encode.line(format!("try container.encode(tag, forKey: {tag_ref})"));
    adjacent_encode_switch(&mut encode, body, "self", &content_ref);
    render_enum(
        ctx,
        body,
        EnumParts {
            doc,
            unknown_payload: "JSONValue?",
            unknown_doc: ADJACENT_UNKNOWN_DOC,
            codable: true,
            coding_keys,
            decode: decode.finish(),
            encode: encode.finish(),
            base: 0,
        },
    )
}

pub(super) const ADJACENT_UNKNOWN_DOC: &str = "A message whose tag this protocol does not know (rule R4): the raw tag and \
     content (`nil` when the content key was absent), re-encoded unchanged.";

/// `switch tag { ... }` assigning `target` (`self` or `self.body`) from the content.
pub(super) fn adjacent_decode_switch(
    lines: &mut Lines,
    body: &BodyPlan,
    target: &str,
    tag_ref: &str,
    content_ref: &str,
    tag_key: &str,
) {
    lines.line("switch tag {");
    for case in &body.cases {
        lines.case(&case.spellings);
        lines.push();
        match (&case.value, &case.variant.payload) {
            (Some(value), Payload::Content(field)) => {
                let method = if field.required && !field.ty.is_nullable() {
                    "decodeRequiredContent"
                } else {
                    "decodeContent"
                };
                lines.call(
                    &format!("let payload = try container.{method}("),
                    &[format!("{value}.self"), format!("forKey: {content_ref}")],
                    ")",
                );
                lines.line(format!("{target} = .{}(payload)", case.escaped()));
            }
            (Some(value), _) => {
                lines.call(
                    "let payload = try container.decodeRequired(",
                    &[format!("{value}.self"), format!("forKey: {content_ref}")],
                    ")",
                );
                lines.line(format!("{target} = .{}(payload)", case.escaped()));
            }
            (None, _) => {
                lines.line(format!("{target} = .{}", case.escaped()));
            }
        }
        lines.pop();
    }
    if !body.exhaustive() {
        lines.line("default:").push();
        if body.open {
            lines.call(
                "let payload = try container.decodeIfKeyPresent(",
                &["JSONValue.self".into(), format!("forKey: {content_ref}")],
                ")",
            );
            lines.line(format!("{target} = .unknown(tag: tag, payload: payload)"));
        } else {
            unknown_tag_error(lines, tag_ref, tag_key);
        }
        lines.pop();
    }
    lines.line("}");
}

/// `switch value { ... }` encoding the content of `value` (`self` or `self.body`).
pub(super) fn adjacent_encode_switch(
    lines: &mut Lines,
    body: &BodyPlan,
    value: &str,
    content_ref: &str,
) {
    let payload_cases = body.cases.iter().any(|c| c.value.is_some());
    if !payload_cases && !body.open {
        return;
    }
    lines.line(format!("switch {value} {{"));
    for case in &body.cases {
        match &case.value {
            Some(_) => lines
                .line(format!("case .{}(let payload):", case.escaped()))
                .push()
                .line(format!(
                    "try container.encode(payload, forKey: {content_ref})"
                ))
                .pop(),
            None => lines
                .line(format!("case .{}:", case.escaped()))
                .push()
                .line("break")
                .pop(),
        };
    }
    if body.open {
        lines
            .line("case .unknown(_, let payload):")
            .push()
            .line(format!(
                "try container.encodeIfPresent(payload, forKey: {content_ref})"
            ))
            .pop();
    }
    lines.line("}");
}
