//! Unions with shared fields, as a struct holding the fields and a nested tagged `Body`
//! enum: envelopes (P1 `{type, id, sender, payload}`, JSON-RPC) and records with a
//! flattened internally tagged union.

use super::*;

/// A union with shared fields, as a struct holding the fields and the tagged body: an
/// envelope (adjacent) or a record with a flattened internally tagged union.
pub(super) fn tagged_struct(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    union: &Union,
    tag_key: &str,
) -> Result<RenderedUnion, model::Error> {
    let adjacent = matches!(union.tagging, Tagging::Adjacent { .. });
    let body_type = if adjacent {
        "Body".to_owned()
    } else {
        naming::type_name(tag_key)
    };
    let body_type = if body_type == name || ["CodingKeys", "Messages"].contains(&body_type.as_str())
    {
        format!("{body_type}Kind")
    } else {
        body_type
    };
    // The nested body type shadows a top-level type of the same name in the struct.
    let struct_ctx = ctx.nested([body_type.clone()]);
    let mut scope = Scope::with_reserved(&["isUnknown"]);
    let mut keys = Scope::default();
    let plans = plan_fields(
        &struct_ctx,
        &named.name,
        &union.fields,
        &mut scope,
        &mut keys,
    )?;
    let body_prop = if adjacent {
        scope.claim("body".to_owned())
    } else {
        scope.claim(naming::member_name(tag_key))
    };
    let body = BodyPlan::new(ctx, named, &body_type, union, name, 4)?;
    let tag_case = keys.claim(naming::member_name(tag_key));
    let tag_ref = format!(".{}", naming::escaped(&tag_case));
    let mut coding_keys = vec![coding_key(&tag_case, tag_key)];
    let mut decode = Lines::at(4);
    let mut encode = Lines::at(4);
    let target = format!("self.{}", naming::escaped(&body_prop));
    decode.call(
        "let tag = try container.decodeRequired(",
        &[
            format!("{}.self", body.tag_type),
            format!("forKey: {tag_ref}"),
        ],
        ")",
    );
    encode.line(format!(
        "try container.encode({target}.tag, forKey: {tag_ref})"
    ));
    if let Tagging::Adjacent { content, .. } = &union.tagging {
        let content_case = keys.claim(naming::member_name(content));
        let content_ref = format!(".{}", naming::escaped(&content_case));
        coding_keys.push(coding_key(&content_case, content));
        adjacent_decode_switch(&mut decode, &body, &target, &tag_ref, &content_ref, tag_key);
        adjacent_encode_switch(&mut encode, &body, &target, &content_ref);
    } else {
        decode.line("switch tag {");
        for case in &body.cases {
            decode.case(&case.spellings);
            decode.push();
            match &case.value {
                None => decode.line(format!("{target} = .{}", case.escaped())),
                Some(value) => {
                    let qualified = if case.nested.is_some() {
                        format!("{body_type}.{value}")
                    } else {
                        value.clone()
                    };
                    case.decode_payload(ctx, &qualified, tag_key, &mut decode);
                    decode.line(format!("{target} = .{}(payload)", case.escaped()))
                }
            };
            decode.pop();
        }
        if !body.exhaustive() {
            decode.line("default:").push();
            if body.open {
                let mut known: Vec<String> = plans
                    .iter()
                    .flat_map(|p| {
                        std::iter::once(p.wire.clone())
                            .chain(p.alias_keys.iter().map(|a| a.1.clone()))
                    })
                    .collect();
                known.push(tag_key.to_owned());
                decode.line("var payload = try [String: JSONValue](from: decoder)");
                for wire in known {
                    decode.line(format!("payload[{}] = nil", string_literal(&wire)));
                }
                decode.line(format!("{target} = .unknown(tag: tag, payload: payload)"));
            } else {
                unknown_tag_error(&mut decode, &tag_ref, tag_key);
            }
            decode.pop();
        }
        decode.line("}");
        let payload_cases = body.cases.iter().any(|c| c.value.is_some());
        if payload_cases || body.open {
            encode.line(format!("switch {target} {{"));
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
                    .line("var extra = encoder.container(keyedBy: AnyCodingKey.self)")
                    .line("for (key, value) in payload {")
                    .push()
                    .line("try extra.encode(value, forKey: AnyCodingKey(key))")
                    .pop()
                    .line("}")
                    .pop();
            }
            encode.line("}");
        }
    }
    let unknown_payload = if adjacent {
        "JSONValue?"
    } else {
        "[String: JSONValue]"
    };
    let unknown_doc = if adjacent {
        ADJACENT_UNKNOWN_DOC
    } else {
        "A value whose tag this schema does not know (rule R4): the raw tag and the \
         object's other keys, re-encoded unchanged."
    };
    let body_doc = format!("The tagged part of `{name}`: one case per `{tag_key}`.");
    let nested_body = render_enum(
        ctx,
        &body,
        EnumParts {
            doc: Some(&body_doc),
            unknown_payload,
            unknown_doc,
            codable: false,
            coding_keys: Vec::new(),
            decode: String::new(),
            encode: String::new(),
            base: 2,
        },
    )?;
    let mut extras = StructExtras {
        body: Some((
            if adjacent {
                "The message: its tag and its content.".to_owned()
            } else {
                format!("The `{tag_key}` and what it carries.")
            },
            naming::escaped(&body_prop),
            body_type.clone(),
        )),
        nested: vec![nested_body],
        coding_keys,
        decode: decode.finish(),
        encode: encode.finish(),
        ..StructExtras::default()
    };
    if body.open {
        extras.conformances.push("OpenUnion");
        extras.computed.push(format!(
            "  /// Whether the {body_prop} is the `unknown` case (rule R4).\n  public var isUnknown: Bool {{\n    if case .unknown = {target} {{ true }} else {{ false }}\n  }}"
        ));
    }
    let doc = layout::doc_text(&named.docs);
    let declaration = records::render_struct(
        &struct_ctx,
        records::StructSpec {
            pointer: &named.pointer,
            doc: doc.as_deref(),
            name,
            plans: &plans,
            additional: &Additional::Allowed,
            base: 0,
        },
        extras,
    )?;
    Ok(RenderedUnion {
        declaration,
        markers: markers(ctx, named, name, &format!("{name}.{body_type}"), &body)?,
    })
}
