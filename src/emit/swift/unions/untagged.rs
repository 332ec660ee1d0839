//! Untagged unions: the first variant that decodes wins.

use super::*;

/// An untagged union: the first variant that decodes wins (serde's `untagged`), or, for
/// a schema symgen did not write, the variant that decodes leaving the fewest keys
/// undeclared (ties go to the first).
pub(super) fn untagged_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
    first_match: bool,
) -> Result<String, model::Error> {
    let mut decode = Lines::at(4);
    decode.line("var errors: [any Error] = []");
    if !first_match {
        decode.line("var best: (value: Self, unknown: Int)?");
    }
    // Where the best match wins, an integer variant is tried before a `Double` one: a
    // JSON integer decodes as both, and the tie goes to the first (a `Double` would
    // round an integer past 2^53).
    let mut order: Vec<_> = body.cases.iter().collect();
    if !first_match {
        order.sort_by_key(|case| !case.value.as_deref().is_some_and(is_integer));
    }
    for case in order {
        let Some(value) = &case.value else {
            return Err(ctx.error(
                &case.variant.pointer,
                "the Swift generator needs a value for every variant of an untagged union",
            ));
        };
        decode.line("do {").push();
        if first_match {
            decode
                .line(format!(
                    "self = .{}(try {value}(from: decoder))",
                    case.escaped()
                ))
                .line("return");
        } else {
            decode
                .guarded_line(format!("let value = try {value}(from: decoder)"))
                .line("let unknown = unknownKeyCount(of: value)")
                .line("if best.map({ unknown < $0.unknown }) ?? true {")
                .push()
                .line(format!("best = (.{}(value), unknown)", case.escaped()))
                .pop()
                .line("}");
        }
        decode
            .pop()
            .line("} catch {")
            .push()
            .line("errors.append(error)")
            .pop()
            .line("}");
    }
    if !first_match {
        decode
            .line("if let best {")
            .push()
            .line("self = best.value")
            .line("return")
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

/// Whether a Swift type is one of the fixed-width integers.
fn is_integer(ty: &str) -> bool {
    matches!(
        ty,
        "Int"
            | "Int8"
            | "Int16"
            | "Int32"
            | "Int64"
            | "UInt"
            | "UInt8"
            | "UInt16"
            | "UInt32"
            | "UInt64"
    )
}
