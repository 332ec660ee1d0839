//! Internally tagged unions without shared fields: `{"type": "a", ...fields}`.

use super::*;

/// An internally tagged union without shared fields: `{"type": "a", ...fields}`.
pub(super) fn internal_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
    tag_key: &str,
    base: usize,
) -> Result<String, model::Error> {
    let key = format!("AnyCodingKey({})", string_literal(tag_key));
    let mut decode = Lines::at(base + 4);
    decode.line("let container = try decoder.container(keyedBy: AnyCodingKey.self)");
    decode.call(
        "let tag = try container.decodeRequired(",
        &[format!("{}.self", body.tag_type), format!("forKey: {key}")],
        ")",
    );
    decode.line("switch tag {");
    for case in &body.cases {
        decode.case(&case.spellings);
        decode.push();
        match &case.value {
            None => decode.line(format!("self = .{}", case.escaped())),
            Some(value) => {
                case.decode_payload(ctx, value, tag_key, &mut decode);
                decode.line(format!("self = .{}(payload)", case.escaped()))
            }
        };
        decode.pop();
    }
    if !body.exhaustive() {
        decode.line("default:").push();
        if body.open {
            decode
                .line("var payload = try [String: JSONValue](from: decoder)")
                .line(format!("payload[{}] = nil", string_literal(tag_key)))
                .line("self = .unknown(tag: tag, payload: payload)");
        } else {
            unknown_tag_error(&mut decode, &key, tag_key);
        }
        decode.pop();
    }
    decode.line("}");

    let mut encode = Lines::at(base + 4);
    encode.line("var container = encoder.container(keyedBy: AnyCodingKey.self)");
    encode.call(
        "try container.encode(",
        &["tag".into(), format!("forKey: {key}")],
        ")",
    );
    let payload_cases = body.cases.iter().any(|c| c.value.is_some());
    if payload_cases || body.open {
        encode.line("switch self {");
        for case in &body.cases {
            match &case.value {
                Some(_) => encode
                    .line(format!("case .{}(let payload):", case.escaped()))
                    .push()
                    .line("try payload.encode(to: encoder)")
                    .pop(),
                None => encode
                    .line(format!("case .{}:", case.escaped()))
                    .push()
                    .line("break")
                    .pop(),
            };
        }
        if body.open {
            encode
                .line("case .unknown(_, let payload):")
                .push()
                .line("for (key, value) in payload {")
                .push()
                .line("try container.encode(value, forKey: AnyCodingKey(key))")
                .pop()
                .line("}")
                .pop();
        }
        encode.line("}");
    }
    render_enum(
        ctx,
        body,
        EnumParts {
            doc,
            unknown_payload: "[String: JSONValue]",
            unknown_doc: "A message whose tag this protocol does not know (rule R4): the raw tag and the \
             object's other keys, re-encoded unchanged.",
            codable: true,
            coding_keys: Vec::new(),
            decode: decode.finish(),
            encode: encode.finish(),
            base,
        },
    )
}
