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
    let mut rest = order.as_slice();
    while let Some((case, _)) = rest.split_first() {
        let Some(value) = &case.value else {
            return Err(ctx.error(
                &case.variant.pointer,
                "the Swift generator needs a value for every variant of an untagged union",
            ));
        };
        // Consecutive constant variants of one Swift type decode that type once and
        // switch on the value: a value that is none of their constants matches none of
        // them (as the validator has it), and the union costs one decode, not one per
        // constant.
        let constants = rest
            .iter()
            .take_while(|c| constant_of(c).is_some() && c.value.as_ref() == Some(value))
            .count();
        decode.line("do {").push();
        if constants > 0 {
            let (group, after) = rest.split_at(constants);
            rest = after;
            let group: Vec<_> = group
                .iter()
                .filter_map(|case| Some((*case, constant_of(case)?)))
                .collect();
            decode_constants(&mut decode, body, value, &group, first_match);
        } else {
            rest = &rest[1..];
            let bounds = integer_bounds(ctx, case);
            // A Rust integer refuses a whole number written as a float (`1.0`).
            let from = if literal_integer(ctx, case) {
                "integerFrom"
            } else if literal_integer_items(ctx, case) {
                "integersFrom"
            } else {
                "from"
            };
            if first_match && bounds.is_none() {
                decode
                    .line(format!(
                        "self = .{}(try {value}({from}: decoder))",
                        case.escaped()
                    ))
                    .line("return");
            } else if first_match {
                decode.guarded_line(format!("let value = try {value}({from}: decoder)"));
                check_bounds(&mut decode, bounds.as_deref());
                decode
                    .line(format!("self = .{}(value)", case.escaped()))
                    .line("return");
            } else {
                decode.guarded_line(format!("let value = try {value}({from}: decoder)"));
                check_bounds(&mut decode, bounds.as_deref());
                decode
                    .line("let unknown = unknownKeyCount(of: value)")
                    .line("if best.map({ unknown < $0.unknown }) ?? true {")
                    .push()
                    .line(format!("best = (.{}(value), unknown)", case.escaped()))
                    .pop()
                    .line("}");
            }
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

/// The range of an alternative that is a bounded integer (`{"type": "integer",
/// "minimum": 0}`), directly or through aliases: a value outside it matches the
/// alternative no more than serde's or the validator's reading lets it.
fn integer_bounds(ctx: &TypeContext<'_>, case: &Case) -> Option<String> {
    payload_integer(ctx, case).and_then(types::int_bounds)
}

/// Whether the variant's payload is an integer read from an integer literal only (a
/// Rust integer, or draft-04's; any other takes `1.0`: see
/// `TypeContext::takes_whole_floats`).
fn literal_integer(ctx: &TypeContext<'_>, case: &Case) -> bool {
    payload_integer(ctx, case).is_some_and(|int| int.literal_only)
}

/// Whether the variant's payload is an array of integers read from an integer literal
/// only, whose items are not nullable.
fn literal_integer_items(ctx: &TypeContext<'_>, case: &Case) -> bool {
    let Payload::Type(TypeExpr::Array(item)) = &case.variant.payload else {
        return false;
    };
    !item.is_nullable()
        && ctx.optional_aliases(item) == 0
        && ctx.bounded_int(item).is_some_and(|int| int.literal_only)
}

/// The integer a variant's payload is, directly or through aliases, when the payload
/// decodes as that integer alone (not nullable, not an array).
fn payload_integer<'c>(
    ctx: &'c TypeContext<'_>,
    case: &'c Case,
) -> Option<&'c crate::model::IntType> {
    let Payload::Type(expr) = &case.variant.payload else {
        return None;
    };
    if expr.is_nullable() || matches!(expr, TypeExpr::Array(_)) || ctx.optional_aliases(expr) != 0 {
        return None;
    }
    ctx.bounded_int(expr)
}

/// Throws unless `value` lies in `bounds` (when there are bounds).
fn check_bounds(decode: &mut Lines, bounds: Option<&str>) {
    if let Some(bounds) = bounds {
        decode.guarded_line(format!("try decoder.check(value, in: {bounds})"));
    }
}

/// The constant a variant's payload is, if it is one.
fn constant_of(case: &Case) -> Option<&Literal> {
    match &case.variant.payload {
        Payload::Type(TypeExpr::Literal(literal)) => Some(literal),
        _ => None,
    }
}

/// The body of a `do` block that decodes `value`, the Swift type of the constant
/// variants `group`, and picks the variant whose constant it is; any other value throws.
fn decode_constants(
    decode: &mut Lines,
    body: &BodyPlan,
    value: &str,
    group: &[(&Case, &Literal)],
    first_match: bool,
) {
    decode.guarded_line(format!("let value = try {value}(from: decoder)"));
    if !first_match {
        decode.line("let matched: Self");
    }
    decode.line("switch value {");
    for (case, constant) in group {
        decode
            .line(format!("case {}:", types::literal_value(constant)))
            .push()
            .line(if first_match {
                format!("self = .{}(value)", case.escaped())
            } else {
                format!("matched = .{}(value)", case.escaped())
            })
            .pop();
    }
    let json = group
        .first()
        .map_or("", |(_, constant)| types::json_case(constant));
    // `true` and `false` together leave no other `Bool` (and Swift warns of a `default`
    // that never runs).
    let both_bools = [true, false]
        .iter()
        .all(|b| group.iter().any(|(_, c)| **c == Literal::Bool(*b)));
    if !both_bools {
        decode
            .line("default:")
            .push()
            .call(
                "throw DecodingError.unknownValue(",
                &[
                    format!("{json}(value)"),
                    format!("of: {}", string_literal(&body.name)),
                    "in: decoder".to_owned(),
                ],
                ")",
            )
            .pop();
    }
    decode.line("}");
    if first_match {
        decode.line("return");
    } else {
        // A constant leaves no key undeclared.
        decode
            .line("if best.map({ 0 < $0.unknown }) ?? true {")
            .push()
            .line("best = (matched, 0)")
            .pop()
            .line("}");
    }
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
