//! How one object field becomes a Swift property: its name, type, coding keys, and the
//! statements that decode, check and encode it.

use crate::model::{self, Field, TypeExpr};

use super::layout::{self, doc_comment};
use super::naming::{self, Scope};
use super::types::{self, TypeContext};

/// A field planned for Swift.
#[derive(Debug, Clone)]
pub struct FieldPlan {
    /// The wire name.
    pub wire: String,
    /// The property name, unescaped.
    pub name: String,
    /// The declared Swift type (`String?` for optional fields).
    pub swift_type: String,
    /// The `CodingKeys` case of the wire name, unescaped.
    pub key: String,
    /// `CodingKeys` cases of the input aliases, with their wire names.
    pub alias_keys: Vec<(String, String)>,
    /// Doc comment text.
    pub doc: Option<String>,
    /// A fixed value (`const`): not stored; checked on decode, written on encode.
    pub constant: Option<model::Literal>,
    /// Whether the property is optional (absent → `nil`).
    pub optional: bool,
    /// The Swift default, when the field has one (used in `init` and on decode).
    pub default: Option<String>,
    /// For a schema symgen did not write, a field with a default stays optional (so an
    /// absent field re-encodes absent) and an accessor supplies the default:
    /// `(accessor name, default expression)`.
    pub or_default: Option<(String, String)>,
    /// Whether the value is kept in a box (`@Boxed`): its type stores so much inline
    /// that every copy of the enclosing struct would be slow to compile (storage.rs).
    pub boxed: bool,
    /// The unchanged model field.
    pub field: Field,
}

impl FieldPlan {
    /// The property as written in code.
    pub fn property(&self) -> String {
        naming::escaped(&self.name)
    }

    /// The `CodingKeys` case as written after a dot.
    pub fn key_ref(&self) -> String {
        format!(".{}", naming::escaped(&self.key))
    }

    /// Whether the field is stored: not a required constant (an optional one is stored
    /// as `T?`, so an absent field re-encodes absent).
    pub fn stored(&self) -> bool {
        self.constant.is_none() || !self.field.required
    }

    /// `case key = "wire"` lines of `CodingKeys` (the alias keys after the key).
    pub fn coding_key_lines(&self) -> Vec<String> {
        let mut lines = vec![coding_key_line(&self.key, &self.wire)];
        for (key, wire) in &self.alias_keys {
            lines.push(coding_key_line(key, wire));
        }
        lines
    }

    /// The stored property declaration (`public let x: T`), with its doc comment,
    /// without a final newline.
    pub fn declaration(&self, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let text = match self.constant.as_ref().filter(|_| !self.stored()) {
            None if self.boxed => layout::typed_declaration(
                indent,
                &format!("@Boxed public private(set) var {}: ", self.property()),
                &self.swift_type,
                "",
            ),
            None => layout::typed_declaration(
                indent,
                &format!("public let {}: ", self.property()),
                &self.swift_type,
                "",
            ),
            Some(value) => layout::guarded(
                format!(
                    "{pad}public var {}: {} {{ {} }}\n",
                    self.property(),
                    types::literal_type(value),
                    types::literal_value(value)
                ),
                indent,
            ),
        };
        format!(
            "{}{}",
            doc_comment(self.doc.as_deref(), indent),
            text.trim_end()
        )
    }

    /// The memberwise `init` parameter (`x: T = nil`).
    pub fn init_parameter(&self) -> String {
        match &self.default {
            Some(default) => format!("{}: {} = {default}", self.property(), self.swift_type),
            None if self.optional => format!("{}: {} = nil", self.property(), self.swift_type),
            None => format!("{}: {}", self.property(), self.swift_type),
        }
    }

    /// Statements (at `indent` spaces) that decode the field from `container` into
    /// `self`, resolving aliases and checking integer bounds.
    pub fn decode_statements(
        &self,
        ctx: &TypeContext<'_>,
        indent: usize,
    ) -> Result<String, model::Error> {
        let mut out = String::new();
        let key = if self.alias_keys.is_empty() {
            self.key_ref()
        } else {
            let local = format!("{}Key", self.name);
            let aliases: Vec<String> = self
                .alias_keys
                .iter()
                .map(|(key, _)| format!(".{}", naming::escaped(key)))
                .collect();
            out.push_str(&layout::call(
                indent,
                &format!("let {local} = try container.presentKey("),
                &[self.key_ref(), format!("aliases: [{}]", aliases.join(", "))],
                ")",
            ));
            local
        };
        if let Some(value) = &self.constant {
            if self.field.required {
                out.push_str(&layout::call(
                    indent,
                    "try container.decodeConstant(",
                    &[types::literal_json(value), format!("forKey: {key}")],
                    ")",
                ));
            } else {
                out.push_str(&layout::call(
                    indent,
                    &format!(
                        "self.{} = try container.decodeConstantIfPresent(",
                        self.property()
                    ),
                    &[types::literal_json(value), format!("forKey: {key}")],
                    &format!(") ? {} : nil", types::literal_value(value)),
                ));
            }
            return Ok(out);
        }
        let value_type = self.value_type(ctx)?;
        let method = self.decode_method();
        let mut args = vec![format!("{value_type}.self"), format!("forKey: {key}")];
        if ctx.takes_whole_floats(&self.field.ty) {
            args.push("wholeFloats: true".to_owned());
        }
        let target = format!("self.{}", self.property());
        match &self.default {
            Some(default) => {
                let call = format!("try container.{method}({})", args.join(", "));
                out.push_str(&layout::assignment(
                    indent,
                    &target,
                    &format!("{call} ?? {default}"),
                ));
            }
            None => out.push_str(&layout::call(
                indent,
                &format!("{target} = try container.{method}("),
                &args,
                ")",
            )),
        }
        if let Some(bounds) = ctx.bounded_int(&self.field.ty).and_then(types::int_bounds) {
            // An alias of a nullable integer adds an optional layer (`Int64??`, or
            // `[Int64?]?` for its array): the check sees the values that are there.
            let value = match (
                ctx.optional_aliases(&self.field.ty),
                &self.field.ty.non_null(),
            ) {
                (0, _) => target.clone(),
                (_, TypeExpr::Array(_)) => format!("{target}?.compactMap {{ $0 }}"),
                (layers, _) => format!("{target}{}", " ?? nil".repeat(layers)),
            };
            out.push_str(&layout::call(
                indent,
                "try container.check(",
                &[value, format!("forKey: {key}"), format!("in: {bounds}")],
                ")",
            ));
        }
        // A tuple's bounded integer items (`prefixItems: [{"minimum": 1}, …]`), each
        // checked as a bounded field is (the error names the field).
        if let TypeExpr::Tuple(items) = self.field.ty.non_null()
            && !self.swift_type.starts_with("Indirect<")
        {
            let access = if self.swift_type.ends_with('?') {
                "?."
            } else {
                "."
            };
            for (i, item) in items.iter().enumerate() {
                let Some(bounds) = ctx.bounded_int(item).and_then(types::int_bounds) else {
                    continue;
                };
                if ctx.optional_aliases(item) != 0 {
                    continue;
                }
                out.push_str(&layout::call(
                    indent,
                    "try container.check(",
                    &[
                        format!("{target}{access}item{i}"),
                        format!("forKey: {key}"),
                        format!("in: {bounds}"),
                    ],
                    ")",
                ));
            }
        }
        Ok(out)
    }

    /// The statement (at `indent` spaces) that encodes the field into `container`.
    pub fn encode_statement(&self, indent: usize) -> String {
        let (method, value) = match &self.constant {
            // Whatever was stored, only the fixed value is ever written.
            Some(value) if !self.field.required => (
                "encodeIfPresent",
                format!(
                    "self.{}.map {{ _ in {} }}",
                    self.property(),
                    literal_for_encode(value)
                ),
            ),
            Some(value) => ("encode", literal_for_encode(value)),
            None if !self.field.required && self.default.is_none() => {
                ("encodeIfPresent", format!("self.{}", self.property()))
            }
            None => ("encode", format!("self.{}", self.property())),
        };
        layout::call(
            indent,
            &format!("try container.{method}("),
            &[value, format!("forKey: {}", self.key_ref())],
            ")",
        )
    }

    /// The type decoded from the wire (the property type without the optional).
    fn value_type(&self, _ctx: &TypeContext<'_>) -> Result<String, model::Error> {
        Ok(self
            .swift_type
            .strip_suffix('?')
            .unwrap_or(&self.swift_type)
            .to_owned())
    }

    /// The container method: absent and `null` are handled per presence (rule R3).
    fn decode_method(&self) -> &'static str {
        let nullable = self.field.ty.is_nullable();
        match (self.field.required, nullable) {
            // `Any` holds `null` itself.
            (true, _) if self.field.ty == TypeExpr::Any => "decodeRequired",
            (true, false) => "decodeRequired",
            (true, true) => "decodeNullable",
            (false, false) => "decodeIfKeyPresent",
            (false, true) => "decodeOptional",
        }
    }
}

fn literal_for_encode(value: &model::Literal) -> String {
    match value {
        model::Literal::Null => "JSONValue.null".to_owned(),
        other => types::literal_value(other),
    }
}

fn coding_key_line(key: &str, wire: &str) -> String {
    if key == wire {
        format!("case {}", naming::escaped(key))
    } else {
        format!(
            "case {} = {}",
            naming::escaped(key),
            layout::string_literal(wire)
        )
    }
}

/// Plans the fields of one object: property names are unique within `scope` (which
/// already holds the names the enclosing declaration reserves), coding keys unique
/// within `keys`.
pub fn plan_fields(
    ctx: &TypeContext<'_>,
    owner: &str,
    fields: &[Field],
    scope: &mut Scope,
    keys: &mut Scope,
) -> Result<Vec<FieldPlan>, model::Error> {
    let mut plans = Vec::new();
    for field in fields {
        let name = scope.claim(naming::member_name(&field.name));
        let key = keys.claim(name.clone());
        let constant = match &field.ty {
            TypeExpr::Literal(literal) => Some(literal.clone()),
            _ => None,
        };
        let nullable = field.ty.is_nullable() && field.ty != TypeExpr::Any;
        let literal = match &field.default {
            Some(value) if constant.is_none() && !field.required && !value.is_null() => {
                Some(ctx.default_literal(&field.ty, value, &field.pointer)?)
            }
            _ => None,
        };
        // symgen's protocols fill and always send defaults (serde's `default`); other
        // schemas keep absent fields absent and offer the default through an accessor.
        let keeps_absence = ctx.model.protocol.is_none();
        let (default, or_default_literal) = if keeps_absence {
            (None, literal)
        } else {
            (literal, None)
        };
        let base = match &field.ty {
            TypeExpr::Any => "JSONValue".to_owned(),
            TypeExpr::Literal(literal) => types::literal_type(literal).to_owned(),
            ty => ctx.swift_type(ty.non_null(), &field.pointer)?,
        };
        let base = if ctx.boxed.contains(&(owner.to_owned(), field.name.clone())) {
            format!("Indirect<{base}>")
        } else {
            base
        };
        // Optional in Swift: absent (and null, R3) when not required and without a
        // default; present but possibly null when required and nullable.
        let optional = default.is_none() && (!field.required || nullable);
        let swift_type = if optional { format!("{base}?") } else { base };
        plans.push(FieldPlan {
            wire: field.name.clone(),
            name,
            swift_type,
            key,
            alias_keys: Vec::new(),
            doc: super::layout::doc_text(&field.docs),
            constant,
            optional,
            default,
            or_default: None,
            boxed: ctx
                .large_fields
                .contains(&(owner.to_owned(), field.name.clone())),
            field: field.clone(),
        });
        if let Some(literal) = or_default_literal {
            let accessor = scope.claim(format!(
                "{}OrDefault",
                plans.last().map(|p| p.name.clone()).unwrap_or_default()
            ));
            if let Some(plan) = plans.last_mut() {
                plan.or_default = Some((accessor, literal));
            }
        }
    }
    // Alias keys are claimed after every canonical key, so canonical names win.
    for plan in &mut plans {
        for alias in &plan.field.aliases {
            let key = keys.claim(format!("{}Alias", plan.name));
            plan.alias_keys.push((key, alias.clone()));
        }
    }
    Ok(plans)
}

impl FieldPlan {
    /// The accessor supplying the default of an optional field with one (schemas symgen
    /// did not write), with its doc comment, at `indent` spaces.
    pub fn or_default_declaration(&self, indent: usize) -> Option<String> {
        let (accessor, literal) = self.or_default.as_ref()?;
        let base = self
            .swift_type
            .strip_suffix('?')
            .unwrap_or(&self.swift_type);
        let doc = format!(
            "`{}`, or its default when absent.",
            self.wire.replace('`', "'")
        );
        let pad = " ".repeat(indent);
        let declaration = format!(
            "{pad}public var {}: {base} {{\n{pad}  {} ?? {literal}\n{pad}}}\n",
            naming::escaped(accessor),
            self.property()
        );
        Some(format!(
            "{}{}",
            doc_comment(Some(&doc), indent),
            layout::guarded(declaration, indent).trim_end()
        ))
    }
}
