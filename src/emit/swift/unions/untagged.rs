//! Untagged unions: the first variant that decodes wins.

use super::*;

/// An untagged union: the first variant that decodes wins.
pub(super) fn untagged_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
) -> Result<String, model::Error> {
    let mut decode = Lines::at(4);
    decode.line("var errors: [any Error] = []");
    for case in &body.cases {
        let Some(value) = &case.value else {
            return Err(ctx.error(
                &case.variant.pointer,
                "the Swift generator needs a value for every variant of an untagged union",
            ));
        };
        decode
            .line("do {")
            .push()
            .line(format!(
                "self = .{}(try {value}(from: decoder))",
                case.escaped()
            ))
            .line("return")
            .pop()
            .line("} catch {")
            .push()
            .line("errors.append(error)")
            .pop()
            .line("}");
    }
    decode.call(
        "throw DecodingError.noMatchingVariant(",
        &[
            format!("of: {}", string_literal(&body.name)),
            "in: decoder".to_owned(),
            "errors: errors".to_owned(),
        ],
        ")",
    );
    let mut encode = Lines::at(4);
    encode.line("switch self {");
    for case in &body.cases {
        encode
            .line(format!("case .{}(let value):", case.escaped()))
            .push()
            .line("try value.encode(to: encoder)")
            .pop();
    }
    encode.line("}");
    render_enum(
        ctx,
        body,
        EnumParts {
            doc,
            unknown_payload: "JSONValue?",
            unknown_doc: "",
            codable: true,
            coding_keys: Vec::new(),
            decode: decode.finish(),
            encode: encode.finish(),
            base: 0,
        },
    )
}
