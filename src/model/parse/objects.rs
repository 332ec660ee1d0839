//! Objects: records and maps, `$ref`-beside-keywords and `allOf` merging, flattened
//! unions, and fields with their aliases.

use super::refine::{self, KindOf};
use super::*;

impl Parser<'_> {
    /// Objects: records, maps, and unions (with or without shared fields). `base` is a
    /// `$ref` found beside the object's own keywords.
    pub(super) fn object(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
        base: Option<String>,
    ) -> Result<Shape> {
        let own_props = props_of(object);
        // Collect composition parts: a `$ref` beside, and non-constraint `allOf` members.
        let mut parts: Vec<Part> = Vec::new();
        if let Some(target) = base {
            parts.push(Part::Ref(target, join(pointer, "$ref")));
        }
        let known_props = self.known_props(object, pointer);
        let known = |key: &str| known_props.contains(key);
        if let Some(all) = object.get("allOf") {
            let Some(all) = all.as_array() else {
                return Err(self.err(&join(pointer, "allOf"), "`allOf` must be an array"));
            };
            for (i, member) in all.iter().enumerate() {
                if !is_constraint(member, &known) {
                    parts.push(Part::Schema(member.clone(), format!("{pointer}/allOf/{i}")));
                }
            }
        }
        // The choice (oneOf/anyOf) that is not a mere constraint, if any.
        let mut choice: Option<(&'static str, &Vec<Value>)> = None;
        for key in ["oneOf", "anyOf"] {
            let Some(members) = object.get(key) else {
                continue;
            };
            let Some(members) = members.as_array() else {
                return Err(self.err(&join(pointer, key), format!("`{key}` must be an array")));
            };
            if members.iter().all(|m| is_constraint(m, &known)) {
                continue;
            }
            if choice.is_some() {
                // Both: the value must take exactly one `oneOf` alternative and at least
                // one `anyOf` alternative. The types follow `oneOf`.
                self.warn(
                    &join(pointer, key),
                    "both `oneOf` and `anyOf` describe alternatives here: the generated types follow `oneOf`; this `anyOf` is not enforced by them",
                );
                continue;
            }
            choice = Some((key, members));
        }

        // `unevaluatedProperties` beside a `$ref` closes the object the reference
        // describes (yamllint's `{"$ref": "#/$defs/rule", "unevaluatedProperties":
        // false}`): the part with the rule, not the part alone.
        let has_own_structure = own_props.is_some_and(|p| !p.is_empty())
            || object.contains_key("additionalProperties")
            || object.contains_key("unevaluatedProperties")
            || object.contains_key("patternProperties");

        // Keys this object requires on top of what its parts require: an
        // `allOf: [{$ref}]` beside `required` is a record of its own, not the part.
        let required = required_keys(object, pointer);

        // A single non-object part and nothing else: the part itself (`allOf: [{$ref}]`).
        if choice.is_none() && !has_own_structure && required.is_empty() && parts.len() == 1 {
            let (part_schema, part_pointer) = match &parts[0] {
                Part::Ref(target, _) => {
                    return Ok(Shape::Expr(TypeExpr::Ref(target.clone())));
                }
                Part::Schema(schema, part_pointer) => (schema.clone(), part_pointer.clone()),
            };
            return self.shape(&part_schema, &part_pointer, ctx);
        }

        if let Some((key, members)) = choice {
            // `anyOf` with a member that accepts anything (`{}`, `true`) accepts anything.
            let accepts_all = |m: &Value| match m {
                Value::Bool(true) => true,
                Value::Object(o) => o.keys().all(|k| ANNOTATIONS.contains(&k.as_str())),
                _ => false,
            };
            if key == "anyOf"
                && !has_own_structure
                && parts.is_empty()
                && members.iter().any(accepts_all)
            {
                return Ok(Shape::Expr(TypeExpr::Any));
            }
            let member_at = |i: usize| format!("{pointer}/{key}/{i}");
            let nulls: Vec<bool> = (members.iter().enumerate())
                .map(|(i, m)| self.is_null_member(m, &member_at(i)))
                .collect();
            let nullable = nulls.iter().any(|&null| null);
            let rest: Vec<(usize, &Value)> = members
                .iter()
                .enumerate()
                .filter(|(i, _)| !nulls[*i])
                .collect();
            if rest.len() == 1 && !has_own_structure && parts.is_empty() {
                let (i, member) = rest[0];
                let shape = self.shape(member, &format!("{pointer}/{key}/{i}"), ctx)?;
                return Ok(if nullable {
                    make_nullable(shape)
                } else {
                    shape
                });
            }
            if rest.is_empty() {
                return Ok(Shape::Expr(TypeExpr::Null));
            }
            let (fields, required) =
                match self.merged_fields(object, pointer, ctx, &parts, &required)? {
                    Merged::Fields(fields, _, required) => (fields, required),
                    Merged::Other(expr) => return Ok(Shape::Expr(expr)),
                };
            let union = self.union(object, pointer, ctx, key, &rest, fields, &required)?;
            let shape = Shape::Kind {
                kind: TypeKind::Union(union),
                nullable: false,
            };
            return Ok(if nullable {
                make_nullable(shape)
            } else {
                shape
            });
        }

        // A union flattened through `allOf` (one member with its own alternatives).
        if let Some(union) = self.flattened_union(&parts)? {
            let (schema, part_pointer) = union;
            let mut merged = schema.as_object().cloned().unwrap_or_default();
            let mut props = own_props.cloned().unwrap_or_default();
            if let Some(extra) = props_of(&merged) {
                for (k, v) in extra {
                    props.insert(k.clone(), v.clone());
                }
            }
            let mut required: Vec<Value> = object
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            required.extend(
                merged
                    .get("required")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
            );
            merged.insert("properties".into(), Value::Object(props));
            merged.insert("required".into(), Value::Array(required));
            // The other parts still apply to every alternative (`allOf: [{oneOf: ...},
            // {$ref: Shared}]`, lsdlschema's phrasings): they stay parts of the object
            // read again, at their own pointers (the union's member read as `true`).
            if !merged.contains_key("allOf")
                && let Some(Value::Array(all)) = object.get("allOf")
                && let Some(index) = part_pointer
                    .rsplit('/')
                    .next()
                    .and_then(|i| i.parse::<usize>().ok())
                    .filter(|i| *i < all.len())
            {
                let mut all = all.clone();
                all[index] = Value::Bool(true);
                merged.insert("allOf".into(), Value::Array(all));
            }
            let base = parts.iter().find_map(|part| match part {
                Part::Ref(target, _) => Some(target.clone()),
                Part::Schema(..) => None,
            });
            return self.object(&merged, pointer, ctx, base);
        }
        let (fields, additional) =
            match self.merged_fields(object, pointer, ctx, &parts, &required)? {
                Merged::Fields(mut fields, additional, _) => {
                    self.required_undeclared(&mut fields, &additional, &required);
                    (fields, additional)
                }
                Merged::Other(expr) => return Ok(Shape::Expr(expr)),
            };

        if fields.is_empty() && parts.is_empty() {
            if let Additional::Typed(value) = additional {
                return Ok(Shape::Expr(TypeExpr::Map(Box::new(value))));
            }
            if !ctx.is_def && additional == Additional::Allowed {
                return Ok(Shape::Expr(TypeExpr::Map(Box::new(TypeExpr::Any))));
            }
        }
        Ok(Shape::Kind {
            kind: TypeKind::Record(Record {
                fields,
                additional,
                constraints: constraints_of(object),
            }),
            nullable: false,
        })
    }

    /// The keys the object requires ([`required_keys`]) that no property declares: each
    /// must be present, with any value the object allows for other keys, so each becomes
    /// a required field of that type (JSON Schema's `required` needs no property schema).
    /// Under `additionalProperties: false` no object has the key, so none satisfies the
    /// schema: that is said, and no field is added.
    fn required_undeclared(
        &mut self,
        fields: &mut Vec<Field>,
        additional: &Additional,
        required: &[(String, String)],
    ) {
        let declared = |fields: &[Field], key: &str| {
            fields
                .iter()
                .any(|f| f.name == key || f.aliases.iter().any(|a| a == key))
        };
        for (key, at) in required {
            if declared(fields, key) {
                continue;
            }
            let ty = match additional {
                Additional::Allowed => TypeExpr::Any,
                Additional::Typed(value) => value.clone(),
                Additional::Forbidden => {
                    self.warn(
                        at,
                        format!("`{key}` is required but no property declares it and `additionalProperties` is false: no object satisfies this schema; the generated types do not enforce that"),
                    );
                    continue;
                }
            };
            fields.push(Field {
                name: key.clone(),
                ty,
                required: true,
                docs: Docs::default(),
                default: None,
                aliases: Vec::new(),
                pointer: at.clone(),
            });
        }
    }

    /// Whether a union member (at `member_pointer`) only allows `null`: itself, or the
    /// def its `$ref` names when it says nothing else but annotations.
    fn is_null_member(&self, member: &Value, member_pointer: &str) -> bool {
        if is_null_schema(member) {
            return true;
        }
        let Some(object) = member.as_object() else {
            return false;
        };
        let only_ref = object
            .keys()
            .all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()));
        let Some(target) = object.get("$ref").and_then(Value::as_str) else {
            return false;
        };
        only_ref
            && self
                .ref_target(target, &join(member_pointer, "$ref"))
                .ok()
                .and_then(|name| self.def_object(&name))
                .is_some_and(is_null_object)
    }

    pub(super) fn known_props(
        &self,
        object: &Map<String, Value>,
        pointer: &str,
    ) -> HashSet<String> {
        let mut known: HashSet<String> = props_of(object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        if let Some(target) = object.get("$ref").and_then(Value::as_str)
            && let Some(def) = self
                .ref_target(target, &join(pointer, "$ref"))
                .ok()
                .and_then(|name| self.def_object(&name))
        {
            known.extend(props_of(def).into_iter().flat_map(|p| p.keys().cloned()));
        }
        known
    }

    /// Among the `allOf` parts, the one that is itself a union (a flattened enum).
    pub(super) fn flattened_union(&mut self, parts: &[Part]) -> Result<Option<(Value, String)>> {
        let mut found = None;
        for part in parts {
            if let Part::Schema(schema, part_pointer) = part {
                let is_union = schema
                    .as_object()
                    .is_some_and(|o| o.contains_key("oneOf") || o.contains_key("anyOf"));
                if is_union {
                    if found.is_some() {
                        self.warn(
                            part_pointer,
                            "only the first union combined into an object through `allOf` is represented; this one is not enforced",
                        );
                        continue;
                    }
                    found = Some((schema.clone(), part_pointer.clone()));
                }
            }
        }
        Ok(found)
    }

    /// The fields of an object: those of its composition parts (in order), then its own,
    /// those `required` names ([`required_keys`]) marked required. Returns the fields,
    /// what else is allowed, and the required keys.
    pub(super) fn merged_fields(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
        parts: &[Part],
        required: &[(String, String)],
    ) -> Result<Merged> {
        let mut fields: Vec<Field> = Vec::new();
        let mut additional = Additional::Allowed;
        let required: Vec<String> = required.iter().map(|(key, _)| key.clone()).collect();
        for part in parts {
            let merged = match part {
                Part::Ref(target, ref_pointer) => self.record_of(target, ref_pointer)?,
                Part::Schema(schema, part_pointer) => {
                    let is_union = schema
                        .as_object()
                        .is_some_and(|o| o.contains_key("oneOf") || o.contains_key("anyOf"));
                    if is_union {
                        continue;
                    }
                    match self.shape(schema, part_pointer, ctx)? {
                        Shape::Kind {
                            kind: TypeKind::Record(record),
                            nullable: false,
                        } => Merge::Record(record.fields, record.additional),
                        Shape::Expr(TypeExpr::Ref(target)) => {
                            self.record_of(&target, part_pointer)?
                        }
                        Shape::Expr(TypeExpr::Map(value)) => {
                            Merge::Record(Vec::new(), map_additional(*value))
                        }
                        Shape::Expr(expr) => Merge::Other(expr, part_pointer.clone()),
                        Shape::Kind { kind, nullable } => {
                            let name = self.unique(&format!("{}Part", ctx.name));
                            let docs = Docs::default();
                            let expr = TypeExpr::Ref(self.hoist(
                                kind,
                                docs,
                                part_pointer,
                                &name,
                                ctx.name,
                            ));
                            Merge::Other(
                                if nullable { expr.nullable() } else { expr },
                                part_pointer.clone(),
                            )
                        }
                    }
                }
            };
            let (part_fields, part_additional) = match merged {
                Merge::Record(fields, additional) => (fields, additional),
                Merge::Other(expr, at) => {
                    // Not an object with fields (a union, a scalar): the conjunction is
                    // typed as this part, which every valid value satisfies; what the
                    // other parts and the object's own keywords add is not enforced.
                    // This part's rules are, so its warning excuses nothing; the rest
                    // is warned about where it is written (tslint's `allOf: [{$ref:
                    // rule}, {items, properties}]`).
                    self.warnings.push(
                        Warning::new(
                            self.file,
                            &at,
                            "this schema is combined with object properties the generated types cannot merge into it; those properties are not enforced",
                        )
                        .reaching(Reach::Nothing),
                    );
                    let own = OBJECT_KEYWORDS
                        .iter()
                        .filter(|key| object.contains_key(**key))
                        .map(|key| join(pointer, key));
                    let rest: Vec<String> = parts
                        .iter()
                        .map(|part| part.pointer().to_owned())
                        .filter(|part| *part != at)
                        .chain(own)
                        .collect();
                    for unenforced in rest {
                        self.warn(
                            &unenforced,
                            format!("not enforced by the generated types, which type this combination as `{at}` alone"),
                        );
                    }
                    return Ok(Merged::Other(expr));
                }
            };
            if part_additional == Additional::Forbidden {
                additional = Additional::Forbidden;
            }
            self.merge_into(&mut fields, part_fields);
        }
        let own = match props_of(object) {
            Some(props) => self.fields(
                props,
                &required,
                &join(pointer, "properties"),
                ctx.name,
                &[],
            )?,
            None => Vec::new(),
        };
        self.merge_into(&mut fields, own);
        for field in &mut fields {
            if required.contains(&field.name) {
                field.required = true;
            }
        }
        // Where the schema of the other keys is, when one is written.
        let mut additional_at = None;
        match object
            .get("additionalProperties")
            .or_else(|| object.get("unevaluatedProperties"))
        {
            None => {}
            // Said explicitly (a `#[serde(flatten)]` catch-all map): extra keys are data
            // a receiver keeps, not keys it may drop.
            Some(Value::Bool(true)) => additional = Additional::Typed(TypeExpr::Any),
            Some(Value::Bool(false)) => additional = Additional::Forbidden,
            Some(schema) => {
                let key = if object.contains_key("additionalProperties") {
                    "additionalProperties"
                } else {
                    "unevaluatedProperties"
                };
                additional_at = Some(join(pointer, key));
                let value = self.expr(
                    schema,
                    &join(pointer, key),
                    &format!("{}Value", ctx.name),
                    ctx.name,
                )?;
                additional = Additional::Typed(value);
            }
        }
        if let Some(patterns) = object.get("patternProperties") {
            let patterns_pointer = join(pointer, "patternProperties");
            let Some(patterns) = patterns.as_object() else {
                return Err(self.err(&patterns_pointer, "`patternProperties` must be an object"));
            };
            let mut values = Vec::new();
            for (pattern, schema) in patterns {
                if schema == &Value::Bool(false) {
                    continue;
                }
                values.push(self.expr(
                    schema,
                    &join(&patterns_pointer, pattern),
                    &format!("{}Value", ctx.name),
                    ctx.name,
                )?);
            }
            if let Additional::Typed(value) = &additional {
                values.push(value.clone());
            }
            values.dedup();
            if !values.is_empty() {
                // Other keys map to the patterns' value type (any JSON when they differ);
                // which key matches which pattern is not enforced.
                let (value, reach) = match values.as_slice() {
                    // One type: every other key's value is held to it, so a fault below
                    // the patterns is found; which pattern a key must match is not.
                    [single] => (single.clone(), Reach::Keyword),
                    // Types that differ: other keys are any JSON, nothing below is held.
                    _ => (TypeExpr::Any, Reach::Below),
                };
                if !(patterns.len() == 1 && fields.is_empty() && additional == Additional::Allowed)
                {
                    self.warnings.push(
                        Warning::new(
                            self.file,
                            &patterns_pointer,
                            "which keys match which `patternProperties` pattern is not enforced by the generated types; other keys are typed as the patterns' values",
                        )
                        .reaching(reach),
                    );
                }
                // The other keys' own schema is one of the types that differ: a key
                // that matches no pattern is any JSON too (ava's `extensions`).
                if let (Reach::Below, Some(at)) = (reach, &additional_at) {
                    self.warnings.push(Warning::new(
                        self.file,
                        at,
                        "the schema of keys that match no `patternProperties` pattern is not enforced by the generated types, since the patterns' values are of other types; such keys are typed as any JSON",
                    ));
                }
                // Beside `additionalProperties: false`, a key that is no property and
                // matches no pattern is refused by the schema; the types take it, as
                // they take every other key (luaurc's `aliases`, prometheus' `labels`).
                if object.get("additionalProperties") == Some(&Value::Bool(false)) {
                    self.warnings.push(
                        Warning::new(
                            self.file,
                            &join(pointer, "additionalProperties"),
                            "`additionalProperties: false` beside `patternProperties`: a key that matches no pattern is not refused by the generated types",
                        )
                        .reaching(Reach::Keyword),
                    );
                }
                additional = Additional::Typed(value);
            }
        }
        Ok(Merged::Fields(fields, additional, required))
    }

    /// [`merge_fields`] with the parser's types, warning where a property's schemas do
    /// not combine.
    fn merge_into(&mut self, fields: &mut Vec<Field>, more: Vec<Field>) {
        let unmerged = merge_fields(fields, more, &mut |name| self.kind_named(name));
        for pair in unmerged {
            self.warn(&pair.later, pair.message());
        }
    }

    /// What the type called `name` is, when it is already known or can be read now
    /// (not while it is being read: a type that includes itself).
    fn kind_named(&mut self, name: &str) -> Option<TypeKind> {
        let Some(&index) = self.by_name.get(name) else {
            // A type hoisted from an inline schema (it has no def).
            let hoisted = self.slots.iter().rev().flatten().find(|t| t.name == name);
            return hoisted.map(|t| t.kind.clone());
        };
        if self.state[index] == SlotState::InProgress {
            return None;
        }
        self.ensure(index).ok()?;
        self.slots[index].as_ref().map(|t| t.kind.clone())
    }

    /// The fields of def `name` when it is a record (for `$ref`/`allOf` merging), or
    /// the type it is when it is not.
    pub(super) fn record_of(&mut self, name: &str, pointer: &str) -> Result<Merge> {
        // An alias chain is followed in a loop, not by recursion: it may be long, and an
        // alias that leads back to itself describes no value.
        let mut name = name.to_owned();
        let mut seen = HashSet::new();
        loop {
            if !seen.insert(name.clone()) {
                return Err(self.err(
                    pointer,
                    format!("`{name}` is an alias of itself: its `$ref`s lead back to it without describing a value"),
                ));
            }
            match self.record_or_alias(&name, pointer)? {
                Ok(merge) => return Ok(merge),
                Err(next) => name = next,
            }
        }
    }

    /// What `record_of` finds in one step: the merge, or the type an alias names.
    fn record_or_alias(
        &mut self,
        name: &str,
        pointer: &str,
    ) -> Result<std::result::Result<Merge, String>> {
        let Some(&index) = self.by_name.get(name) else {
            return Err(self.err(pointer, format!("unknown type `{name}`")));
        };
        if self.state[index] == SlotState::InProgress {
            // The type includes itself (`allOf: [{$ref: "#"}, ...]` inside it): typed as
            // the type, whose fields every valid value has.
            self.warn(
                pointer,
                format!("`{name}` includes itself here; this is typed as `{name}` and what is combined with it is not enforced"),
            );
            return Ok(Ok(Merge::Other(
                TypeExpr::Ref(name.to_owned()),
                pointer.to_owned(),
            )));
        }
        self.ensure(index)?;
        let named = self.slots[index].as_ref().map(|t| t.kind.clone());
        Ok(match named {
            Some(TypeKind::Record(record)) => Ok(Merge::Record(record.fields, record.additional)),
            Some(TypeKind::Alias(TypeExpr::Ref(next))) => Err(next),
            Some(TypeKind::Alias(TypeExpr::Map(value))) => {
                Ok(Merge::Record(Vec::new(), map_additional(*value)))
            }
            _ => Ok(Merge::Other(
                TypeExpr::Ref(name.to_owned()),
                pointer.to_owned(),
            )),
        })
    }

    /// The fields of a `properties` map. `skip` lists keys handled elsewhere (tags).
    pub(super) fn fields(
        &mut self,
        props: &Map<String, Value>,
        required: &[String],
        pointer: &str,
        owner: &str,
        skip: &[&str],
    ) -> Result<Vec<Field>> {
        let mut fields: Vec<Field> = Vec::new();
        let mut alias_of: Vec<(String, String, String)> = Vec::new();
        for (key, schema) in props {
            if skip.contains(&key.as_str()) {
                continue;
            }
            let field_pointer = join(pointer, key);
            if schema == &Value::Bool(false) {
                self.warn(
                    &field_pointer,
                    format!("property `{key}` must be absent (schema `false`); not enforced by the generated types"),
                );
                continue;
            }
            if let Some(canonical) = schema.get("x-symgen-alias-of") {
                let Some(canonical) = canonical.as_str() else {
                    return Err(self.err(
                        &join(&field_pointer, "x-symgen-alias-of"),
                        "`x-symgen-alias-of` must name a property",
                    ));
                };
                alias_of.push((key.clone(), canonical.to_owned(), field_pointer));
                continue;
            }
            let hint = format!("{owner}{}", pascal_case(key));
            let ty = self.expr(schema, &field_pointer, &hint, owner)?;
            let object = schema.as_object();
            let aliases = string_list(object.and_then(|o| o.get("x-symgen-aliases")))
                .into_iter()
                .map(str::to_owned)
                .collect();
            let hinted_required = object
                .and_then(|o| o.get("x-symgen-required"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            fields.push(Field {
                name: key.clone(),
                ty,
                required: hinted_required || required.iter().any(|r| r == key),
                docs: object.map(|o| docs_of(o, true)).unwrap_or_default(),
                default: object.and_then(|o| o.get("default")).cloned(),
                aliases,
                pointer: field_pointer,
            });
        }
        for (alias, canonical, alias_pointer) in alias_of {
            let Some(field) = fields.iter_mut().find(|f| f.name == canonical) else {
                return Err(self.err(
                    &alias_pointer,
                    format!("`{alias}` is an alias of `{canonical}`, which is not a property here"),
                ));
            };
            if !field.aliases.contains(&alias) {
                field.aliases.push(alias);
            }
        }
        Ok(fields)
    }
}

/// What a composition part contributes: fields, or (not being an object with fields)
/// a type of its own.
pub(super) enum Merge {
    Record(Vec<Field>, Additional),
    Other(TypeExpr, String),
}

/// An object's merged fields, or the one type a composition stands for.
pub(super) enum Merged {
    /// Fields, what else is allowed, the required keys.
    Fields(Vec<Field>, Additional, Vec<String>),
    /// A part that is not an object with fields: the conjunction's type.
    Other(TypeExpr),
}

/// A map's value type as what an object allows beside its fields.
fn map_additional(value: TypeExpr) -> Additional {
    if value == TypeExpr::Any {
        Additional::Allowed
    } else {
        Additional::Typed(value)
    }
}

/// An object's own keywords, which a combination typed as one of its parts leaves out.
const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
];

pub(super) enum Part {
    Ref(String, String),
    Schema(Value, String),
}

impl Part {
    /// Where the part is written: its `$ref`, or its `allOf` member.
    fn pointer(&self) -> &str {
        match self {
            Part::Ref(_, pointer) | Part::Schema(_, pointer) => pointer,
        }
    }
}

/// Two schemas of one property that no single generated type combines: the later one
/// is the field's type and the earlier one's rule is not enforced.
pub(super) struct Unmerged {
    pub name: String,
    pub earlier: String,
    pub later: String,
}

impl Unmerged {
    pub(super) fn message(&self) -> String {
        format!(
            "property `{}` is described again here in a way the generated types cannot combine with its schema at `{}`; only this schema is enforced",
            self.name, self.earlier
        )
    }
}

/// Adds `more` to `fields`. A property both describe must satisfy both schemas: its
/// type becomes their conjunction (the narrower, see [`refine::conjunction`]); where
/// there is none, the later type is kept and the pair is returned for a warning.
pub(super) fn merge_fields(
    fields: &mut Vec<Field>,
    more: Vec<Field>,
    kind_of: &mut KindOf<'_>,
) -> Vec<Unmerged> {
    let mut unmerged = Vec::new();
    for field in more {
        match fields.iter_mut().find(|f| f.name == field.name) {
            Some(existing) => {
                existing.required |= field.required;
                match refine::conjunction(&existing.ty, &field.ty, kind_of) {
                    Some(ty) => existing.ty = ty,
                    None => {
                        unmerged.push(Unmerged {
                            name: field.name.clone(),
                            earlier: existing.pointer.clone(),
                            later: field.pointer.clone(),
                        });
                        existing.ty = field.ty;
                    }
                }
                if existing.docs.description.is_none() {
                    existing.docs = field.docs;
                }
                if existing.default.is_none() {
                    existing.default = field.default;
                }
                for alias in field.aliases {
                    if !existing.aliases.contains(&alias) {
                        existing.aliases.push(alias);
                    }
                }
            }
            None => fields.push(field),
        }
    }
    unmerged
}
