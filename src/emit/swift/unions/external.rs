//! Externally tagged unions: `{"a": {...}}`, or `"a"` for a variant without content.

use super::*;

/// An externally tagged union: `{"a": {...}}`, or `"a"` for a variant without content.
pub(super) fn external_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
) -> Result<String, model::Error> {
    let mut decode = Lines::at(4);
    let units: Vec<&Case> = body.cases.iter().filter(|c| c.value.is_none()).collect();
    if !units.is_empty() || body.open {
        decode.line("if let single = try? decoder.singleValueContainer(),");
        decode.line("  let tag = try? single.decode(String.self)");
        decode.line("{").push();
        decode.line("switch tag {");
        for case in &units {
            decode.case(&case.spellings);
            decode
                .push()
                .line(format!("self = .{}", case.escaped()))
                .pop();
        }
        decode.line("default:").push();
        if body.open {
            decode.line("self = .unknown(tag: tag, payload: nil)");
        } else {
            decode.call(
                "throw DecodingError.dataCorruptedError(",
                &[
                    "in: single".into(),
                    "debugDescription: \"unknown tag \\\"\\(tag)\\\"\"".into(),
                ],
                ")",
            );
        }
        decode.pop().line("}").line("return");
        decode.pop().line("}");
    }
    decode.line("let container = try decoder.container(keyedBy: AnyCodingKey.self)");
    decode.line("guard container.allKeys.count == 1, let key = container.allKeys.first else {");
    decode.push();
    decode.line("throw DecodingError.notSingleKeyObject(in: decoder)");
    decode.pop().line("}");
    decode.line("switch key.stringValue {");
    for case in body.cases.iter().filter(|c| c.value.is_some()) {
        let value = case.value.as_deref().unwrap_or_default();
        decode.case(&case.spellings);
        decode
            .push()
            .call(
                "let payload = try container.decodeRequired(",
                &[format!("{value}.self"), "forKey: key".to_owned()],
                ")",
            )
            .line(format!("self = .{}(payload)", case.escaped()))
            .pop();
    }
    decode.line("default:").push();
    if body.open {
        decode
            .line("let payload = try container.decodeRequired(JSONValue.self, forKey: key)")
            .line("self = .unknown(tag: key.stringValue, payload: payload)");
    } else {
        decode.call(
            "throw DecodingError.dataCorruptedError(",
            &[
                "forKey: key".into(),
                "in: container".into(),
                "debugDescription: \"unknown tag \\\"\\(key.stringValue)\\\"\"".into(),
            ],
            ")",
        );
    }
    decode.pop().line("}");

    let mut encode = Lines::at(4);
    encode.line("switch self {");
    for case in &body.cases {
        match &case.value {
            None => encode
                .line(format!("case .{}:", case.escaped()))
                .push()
                .line("var container = encoder.singleValueContainer()")
                .line(format!(
                    "try container.encode({})",
                    case.tag
                        .as_ref()
                        .map(types::literal_value)
                        .unwrap_or_default()
                ))
                .pop(),
            Some(_) => encode
                .line(format!("case .{}(let payload):", case.escaped()))
                .push()
                .line("var container = encoder.container(keyedBy: AnyCodingKey.self)")
                .call(
                    "try container.encode(",
                    &[
                        "payload".into(),
                        format!(
                            "forKey: AnyCodingKey({})",
                            case.tag
                                .as_ref()
                                .map(types::literal_value)
                                .unwrap_or_default()
                        ),
                    ],
                    ")",
                )
                .pop(),
        };
    }
    if body.open {
        encode
            .line("case .unknown(let tag, let payload):")
            .push()
            .line("if let payload {")
            .push()
            .line("var container = encoder.container(keyedBy: AnyCodingKey.self)")
            .line("try container.encode(payload, forKey: AnyCodingKey(tag))")
            .pop()
            .line("} else {")
            .push()
            .line("var container = encoder.singleValueContainer()")
            .line("try container.encode(tag)")
            .pop()
            .line("}")
            .pop();
    }
    encode.line("}");
    render_enum(
        ctx,
        body,
        EnumParts {
            doc,
            unknown_payload: "JSONValue?",
            unknown_doc: "A value whose tag this schema does not know (rule R4): the raw tag and content \
             (`nil` for a bare string), re-encoded unchanged.",
            codable: true,
            coding_keys: Vec::new(),
            decode: decode.finish(),
            encode: encode.finish(),
            base: 0,
        },
    )
}
