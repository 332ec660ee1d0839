//! Unions: tag detection (internal, adjacent, external, untagged), variants and their
//! payloads, the open unknown case and the reply pairing.

use super::*;

impl Parser<'_> {
    /// A union of `members` (null members already removed), with shared `fields`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn union(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
        key: &str,
        members: &[(usize, &Value)],
        mut fields: Vec<Field>,
        parent_required: &[String],
    ) -> Result<Union> {
        let mut views = Vec::new();
        for &(i, member) in members {
            let member_pointer = format!("{pointer}/{key}/{i}");
            // `{enum: [a, b]}` among objects: one unit variant per value.
            if let Some(values) = multi_value_enum(member) {
                for value in values {
                    let mut object = Map::new();
                    object.insert("const".into(), value.clone());
                    views.push(View {
                        object,
                        target: None,
                        target_object: None,
                        pointer: member_pointer.clone(),
                        distinct_name: None,
                    });
                }
                continue;
            }
            views.push(self.view(member, member_pointer)?);
        }
        name_alike_alternatives(&mut views);
        let unknown_hint = |v: &View| v.object.get("x-symgen-unknown") == Some(&Value::Bool(true));
        let hint = object
            .get("x-symgen-envelope")
            .or_else(|| object.get("x-symgen-union"));
        let hinted_tag = hint.and_then(|h| h.get("tag")).and_then(Value::as_str);
        let hinted_content = object
            .get("x-symgen-envelope")
            .and_then(|h| h.get("content"))
            .and_then(Value::as_str);

        let tag = match hinted_tag {
            Some(tag) => Some(tag.to_owned()),
            None => find_tag(&views, parent_required),
        };
        let mut unknown = None;
        let mut variants = Vec::new();
        let tagging = match &tag {
            Some(tag) => {
                let known: Vec<&View> = views
                    .iter()
                    .filter(|v| {
                        !unknown_hint(v) && v.tag_schema(tag).and_then(tag_values).is_some()
                    })
                    .collect();
                let content = match hinted_content {
                    Some(content) => Some(content.to_owned()),
                    None => adjacent_content(&known, tag),
                };
                match content {
                    Some(content) => Tagging::Adjacent {
                        tag: tag.clone(),
                        content,
                    },
                    None => Tagging::Internal { tag: tag.clone() },
                }
            }
            None if is_external(&views) => Tagging::External,
            None => Tagging::Untagged,
        };
        for view in &views {
            let is_unknown = unknown_hint(view)
                || tag
                    .as_deref()
                    .is_some_and(|t| view.tag_schema(t).and_then(tag_values).is_none());
            if is_unknown {
                if unknown.is_some() || tag.is_none() {
                    return Err(self.err(
                        &view.pointer,
                        "a union may have only one open (unknown-tag) variant, and only when it is tagged",
                    ));
                }
                unknown = Some(UnknownVariant {
                    name: view
                        .object
                        .get("title")
                        .and_then(Value::as_str)
                        .unwrap_or("Unknown")
                        .to_owned(),
                    docs: docs_of(&view.object, false),
                    pointer: view.pointer.clone(),
                });
                continue;
            }
            variants.extend(self.variants(view, &tagging, ctx, !fields.is_empty())?);
        }
        dedupe_names(&mut variants);
        if let Some(tag) = tag.as_deref() {
            fields.retain(|f| f.name != tag);
            if let Tagging::Adjacent { content, .. } = &tagging {
                fields.retain(|f| f.name != *content);
            }
            let mut seen: HashSet<&Literal> = HashSet::new();
            for variant in &variants {
                for value in variant.tag.iter().chain(&variant.tag_aliases) {
                    if !seen.insert(value) {
                        return Err(self.err(
                            &variant.pointer,
                            format!(
                                "tag value {} of `{tag}` is used by more than one variant",
                                value.to_json()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(Union {
            tagging,
            fields,
            variants,
            unknown,
            first_match: self.root.contains_key("x-symgen-protocol"),
        })
    }

    /// A union member, with its `$ref` target's properties visible for tag detection.
    pub(super) fn view(&self, member: &Value, pointer: String) -> Result<View> {
        let Some(object) = member.as_object() else {
            return match member {
                Value::Bool(true) => Ok(View {
                    object: Map::new(),
                    target: None,
                    target_object: None,
                    pointer,
                    distinct_name: None,
                }),
                _ => Err(self.err(&pointer, "a union member must be a schema object")),
            };
        };
        let mut target = None;
        let mut target_object = None;
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let name = self.ref_target(reference, &join(&pointer, "$ref"))?;
            target_object = self.composed_object(&name);
            target = Some(name);
        }
        Ok(View {
            object: object.clone(),
            target,
            target_object,
            pointer,
            distinct_name: None,
        })
    }

    /// The schema of def `name` (past `$ref` aliases) for finding a union's tag: with
    /// the properties and required keys its `allOf` members and `$ref`s contribute, so
    /// that a message inheriting `command` from a base and pinning it to `"launch"`
    /// shows the pinned schema.
    fn composed_object(&self, name: &str) -> Option<Map<String, Value>> {
        let object = self.def_object(name)?;
        if !object.contains_key("allOf") && !object.contains_key("$ref") {
            return Some(object.clone());
        }
        let pointer = self.defs[*self.by_name.get(name)?].pointer.clone();
        let mut props = Map::new();
        let mut required = Vec::new();
        self.compose(object, &pointer, &mut props, &mut required, 0);
        let mut composed = object.clone();
        composed.insert("properties".into(), Value::Object(props));
        composed.insert("required".into(), Value::Array(required));
        Some(composed)
    }

    /// Adds the properties and required keys of `object` and of what it composes
    /// (`$ref`, `allOf`), earlier parts first. A later schema of a property replaces an
    /// earlier one, unless only the earlier one pins its values.
    fn compose(
        &self,
        object: &Map<String, Value>,
        pointer: &str,
        props: &mut Map<String, Value>,
        required: &mut Vec<Value>,
        depth: usize,
    ) {
        const MAX_COMPOSITION: usize = 32;
        if depth > MAX_COMPOSITION {
            return;
        }
        if let Some(reference) = object.get("$ref").and_then(Value::as_str)
            && let Ok(name) = self.ref_target(reference, &join(pointer, "$ref"))
            && let Some(&index) = self.by_name.get(&name)
            && let Some(target) = self.def_schema(index)
        {
            let at = self.defs[index].pointer.clone();
            self.compose(target, &at, props, required, depth + 1);
        }
        if let Some(Value::Array(members)) = object.get("allOf") {
            for (i, member) in members.iter().enumerate() {
                if let Some(member) = member.as_object() {
                    let at = format!("{pointer}/allOf/{i}");
                    self.compose(member, &at, props, required, depth + 1);
                }
            }
        }
        for (key, schema) in props_of(object).into_iter().flatten() {
            let pins = |s: &Value| tag_values(s).is_some();
            let keep_earlier = props.get(key).is_some_and(pins) && !pins(schema);
            if !keep_earlier {
                props.insert(key.clone(), schema.clone());
            }
        }
        for key in object
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !required.contains(key) {
                required.push(key.clone());
            }
        }
    }

    /// The variants of one union member: one, or, when its tag may take several values
    /// that are not input aliases (`enum` without `x-symgen-aliases`), one per value,
    /// so that decoding and encoding keep the value the message gave.
    /// `shared`: the union has fields beside its variants.
    pub(super) fn variants(
        &mut self,
        view: &View,
        tagging: &Tagging,
        ctx: Ctx<'_>,
        shared: bool,
    ) -> Result<Vec<Variant>> {
        let mut distinct = Vec::new();
        let variant = self.variant(view, tagging, ctx, shared, &mut distinct)?;
        if distinct.is_empty() {
            return Ok(vec![variant]);
        }
        // Each is named after its tag value, as an untitled variant is.
        let name_for = |value: &Literal| match value {
            Literal::String(s) => s.clone(),
            other => other.to_json(),
        };
        let mut split = Vec::new();
        for value in std::iter::once(variant.tag.clone().expect("a tagged variant")).chain(distinct)
        {
            split.push(Variant {
                name: name_for(&value),
                tag: Some(value),
                ..variant.clone()
            });
        }
        Ok(split)
    }

    /// One union member's variant; tag values it may also take that are not input
    /// aliases go to `distinct`.
    fn variant(
        &mut self,
        view: &View,
        tagging: &Tagging,
        ctx: Ctx<'_>,
        shared: bool,
        distinct: &mut Vec<Literal>,
    ) -> Result<Variant> {
        let object = &view.object;
        let (tag, tag_aliases) = match tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                let schema = view.tag_schema(tag);
                let (first, rest) = schema.and_then(tag_values).ok_or_else(|| {
                    self.err(
                        &view.pointer,
                        format!("this variant has no constant `{tag}`"),
                    )
                })?;
                let marked: Vec<Literal> = schema
                    .and_then(|s| s.get("x-symgen-aliases"))
                    .and_then(Value::as_array)
                    .map(|list| list.iter().filter_map(literal_of).collect())
                    .unwrap_or_default();
                let (aliases, others): (Vec<Literal>, Vec<Literal>) =
                    rest.into_iter().partition(|value| marked.contains(value));
                *distinct = others;
                (Some(first), aliases)
            }
            Tagging::External => (
                external_key(object).map(|k| Literal::String(k.0)),
                Vec::new(),
            ),
            Tagging::Untagged => (None, Vec::new()),
        };
        let name = object
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| match &tag {
                Some(Literal::String(s)) => Some(s.clone()),
                Some(other) => Some(other.to_json()),
                None => None,
            })
            .or_else(|| view.target.clone())
            .or_else(|| view.distinct_name.clone())
            .unwrap_or_else(|| kind_name(object).to_owned());
        let variant_hint = format!("{}{}", ctx.name, pascal_case(&name));
        let payload = match tagging {
            Tagging::Internal { tag } => {
                self.internal_payload(view, tag, &variant_hint, ctx, shared)?
            }
            Tagging::Adjacent { tag, content } => {
                let props = props_of(object);
                match props.and_then(|p| p.get(content)) {
                    None => Payload::Unit,
                    Some(schema) => {
                        let required =
                            string_list(object.get("required")).contains(&content.as_str());
                        let content_pointer = join(&join(&view.pointer, "properties"), content);
                        let hint = format!("{variant_hint}Content");
                        let ty = self.expr(schema, &content_pointer, &hint, ctx.name)?;
                        let _ = tag;
                        Payload::Content(Box::new(Field {
                            name: content.clone(),
                            ty,
                            required,
                            docs: schema
                                .as_object()
                                .map(|o| docs_of(o, true))
                                .unwrap_or_default(),
                            default: schema.get("default").cloned(),
                            aliases: Vec::new(),
                            pointer: content_pointer,
                        }))
                    }
                }
            }
            Tagging::External => match external_key(object) {
                Some((key, Some(schema))) => {
                    let content_pointer = join(&join(&view.pointer, "properties"), &key);
                    self.value_payload(&schema, &content_pointer, &variant_hint, ctx)?
                }
                _ => Payload::Unit,
            },
            Tagging::Untagged => {
                let member = Value::Object(object.clone());
                match self.value_payload(&member, &view.pointer, &variant_hint, ctx)? {
                    // An alternative that says nothing beside shared fields (`{}` in an
                    // `anyOf` beside `properties`): the object of the shared fields, not
                    // any JSON (dofigen's root took a number its `type: object` refuses).
                    Payload::Type(TypeExpr::Any) if shared && view.target.is_none() => {
                        Payload::Fields(Vec::new())
                    }
                    payload => payload,
                }
            }
        };
        let reply = match (
            object.get("x-symgen-reply"),
            object.get("x-symgen-is-reply"),
        ) {
            (_, Some(Value::Bool(true))) => Reply::IsReply,
            (Some(Value::Null), _) => Reply::None,
            (Some(schema), _) => {
                let reply_pointer = join(&view.pointer, "x-symgen-reply");
                Reply::Data(self.expr(
                    schema,
                    &reply_pointer,
                    &format!("{variant_hint}Reply"),
                    ctx.name,
                )?)
            }
            (None, _) => Reply::Unspecified,
        };
        Ok(Variant {
            name,
            tag,
            tag_aliases,
            docs: docs_of(object, false),
            payload,
            reply,
            pointer: view.pointer.clone(),
        })
    }

    /// The payload of an internally tagged variant: the member without its tag.
    pub(super) fn internal_payload(
        &mut self,
        view: &View,
        tag: &str,
        hint: &str,
        ctx: Ctx<'_>,
        shared: bool,
    ) -> Result<Payload> {
        let mut rest = view.object.clone();
        for key in [
            "title",
            "description",
            "deprecated",
            "x-symgen-reply",
            "x-symgen-is-reply",
            "x-symgen-sent-by",
            "x-symgen-received-by",
        ] {
            rest.shift_remove(key);
        }
        if let Some(Value::Object(props)) = rest.get_mut("properties") {
            props.shift_remove(tag);
            if props.is_empty() {
                rest.shift_remove("properties");
            }
        }
        if let Some(Value::Array(required)) = rest.get_mut("required") {
            required.retain(|r| r != tag);
        }
        let has_fields = rest.contains_key("properties")
            || rest.contains_key("allOf")
            || rest.contains_key("oneOf")
            || rest.contains_key("anyOf");
        if let Some(target) = &view.target {
            if !has_fields {
                return Ok(Payload::Type(TypeExpr::Ref(target.clone())));
            }
        } else if !has_fields {
            return Ok(Payload::Unit);
        }
        let parent = ctx.name;
        let ctx = Ctx {
            name: hint,
            is_def: true,
        };
        match self.shape(&Value::Object(rest), &view.pointer, ctx)? {
            // Fields written inline carry no rule of their own object: a variant that
            // forbids or types other keys, or states cross-field rules, becomes a
            // named record below, unless the union has shared fields (which the
            // variants' inline fields may redefine).
            Shape::Kind {
                kind: TypeKind::Record(record),
                nullable: false,
            } if shared
                || (record.additional == Additional::Allowed && record.constraints.is_empty()) =>
            {
                if record.fields.is_empty() {
                    Ok(Payload::Unit)
                } else {
                    Ok(Payload::Fields(record.fields))
                }
            }
            Shape::Expr(expr) => Ok(Payload::Type(expr)),
            Shape::Kind { kind, nullable } => {
                // A record's name says it holds the variant's fields: emitters name
                // the variant itself after the hint.
                let name = match kind {
                    TypeKind::Record(_) => self.unique(&format!("{hint}Fields")),
                    _ => self.unique(hint),
                };
                let expr =
                    TypeExpr::Ref(self.hoist(kind, Docs::default(), &view.pointer, &name, parent));
                Ok(Payload::Type(if nullable { expr.nullable() } else { expr }))
            }
        }
    }

    /// The payload of an untagged or externally tagged variant: a whole value.
    pub(super) fn value_payload(
        &mut self,
        schema: &Value,
        pointer: &str,
        hint: &str,
        ctx: Ctx<'_>,
    ) -> Result<Payload> {
        let mut cleaned = schema.clone();
        if let Value::Object(o) = &mut cleaned {
            for key in [
                "title",
                "description",
                "deprecated",
                "x-symgen-reply",
                "x-symgen-is-reply",
                "x-symgen-sent-by",
                "x-symgen-received-by",
            ] {
                o.shift_remove(key);
            }
        }
        let name = self.unique(hint);
        let inner = Ctx {
            name: &name,
            is_def: true,
        };
        match self.shape(&cleaned, pointer, inner)? {
            // Fields written inline carry no rule of their own object; an alternative
            // that closes its object or states cross-field rules stays a named record
            // (below), so its rules hold.
            Shape::Kind {
                kind: TypeKind::Record(record),
                nullable: false,
            } if record.additional == Additional::Allowed && record.constraints.is_empty() => {
                self.taken.remove(&name);
                Ok(Payload::Fields(record.fields))
            }
            Shape::Expr(expr) => {
                self.taken.remove(&name);
                Ok(Payload::Type(expr))
            }
            Shape::Kind { kind, nullable } => {
                let expr =
                    TypeExpr::Ref(self.hoist(kind, Docs::default(), pointer, &name, ctx.name));
                Ok(Payload::Type(if nullable { expr.nullable() } else { expr }))
            }
        }
    }
}

pub(super) struct View {
    object: Map<String, Value>,
    target: Option<String>,
    target_object: Option<Map<String, Value>>,
    pointer: String,
    /// The name of an untitled alternative that shares its kind with others (several
    /// objects): after the property only it has, instead of a number.
    distinct_name: Option<String>,
}

impl View {
    pub(super) fn props(&self) -> impl Iterator<Item = (&String, &Value)> {
        props_of(&self.object)
            .into_iter()
            .flatten()
            .chain(self.target_object.iter().filter_map(props_of).flatten())
    }

    pub(super) fn tag_schema(&self, tag: &str) -> Option<&Value> {
        props_of(&self.object).and_then(|p| p.get(tag)).or_else(|| {
            self.target_object
                .as_ref()
                .and_then(props_of)
                .and_then(|p| p.get(tag))
        })
    }

    pub(super) fn requires(&self, key: &str) -> bool {
        string_list(self.object.get("required")).contains(&key)
            || self
                .target_object
                .as_ref()
                .is_some_and(|t| string_list(t.get("required")).contains(&key))
    }
}

pub(super) fn type_name(ty: &str) -> &'static str {
    match ty {
        "string" => "String",
        "integer" => "Integer",
        "number" => "Number",
        "boolean" => "Boolean",
        "array" => "Array",
        "object" => "Object",
        _ => "Value",
    }
}

pub(super) fn kind_name(object: &Map<String, Value>) -> &'static str {
    match object.get("type").and_then(Value::as_str) {
        Some(ty) => type_name(ty),
        None if object.contains_key("properties") => "Object",
        None if object.contains_key("const") || object.contains_key("enum") => "Literal",
        None => "Value",
    }
}

/// Names untitled alternatives of one kind (several objects written inline) after a
/// property only that alternative has (`{ps}`, `{cmd}` → `Ps`, `Cmd`), its required
/// ones first, so that their names and the types hoisted from them say what they are
/// instead of `Object`, `Object2`.
fn name_alike_alternatives(views: &mut [View]) {
    // The untitled inline objects, each with its keys (required ones first); a key is
    // its alternative's own when no other of them has it. One pass to count, one to name.
    let alike = |v: &View| {
        v.target.is_none() && !v.object.contains_key("title") && kind_name(&v.object) == "Object"
    };
    let keys = |v: &View| -> Vec<String> {
        let mut keys: Vec<String> = string_list(v.object.get("required"))
            .into_iter()
            .map(str::to_owned)
            .collect();
        for key in props_of(&v.object).into_iter().flatten().map(|(k, _)| k) {
            if !keys.contains(key) {
                keys.push(key.clone());
            }
        }
        keys
    };
    let keyed: Vec<Option<Vec<String>>> = views.iter().map(|v| alike(v).then(|| keys(v))).collect();
    if keyed.iter().flatten().count() < 2 {
        return;
    }
    let mut holders: HashMap<&str, usize> = HashMap::new();
    for key in keyed.iter().flatten().flatten() {
        *holders.entry(key.as_str()).or_default() += 1;
    }
    for (view, keys) in views.iter_mut().zip(&keyed) {
        view.distinct_name = keys
            .iter()
            .flatten()
            .find(|key| holders[key.as_str()] == 1)
            .map(|key| pascal_case(key))
            .filter(|name| !name.is_empty());
    }
}

pub(super) fn dedupe_names(variants: &mut [Variant]) {
    let mut seen: HashSet<String> = HashSet::new();
    for variant in variants.iter_mut() {
        let base = variant.name.clone();
        let mut n = 2;
        while !seen.insert(variant.name.clone()) {
            variant.name = format!("{base}{n}");
            n += 1;
        }
    }
}

/// The key that tags every (known) member: a property that each member requires with a
/// constant value, distinct across members.
/// The tag of a union (see [`crate::tags::find`]): a property every known member
/// requires (itself, or through the object the union is in) and pins to distinct values.
pub(super) fn find_tag(views: &[View], parent_required: &[String]) -> Option<String> {
    let alternatives: Vec<Tagged<'_>> = views
        .iter()
        .map(|view| Tagged {
            view,
            parent_required,
        })
        .collect();
    let alternatives: Vec<&Tagged<'_>> = alternatives.iter().collect();
    let rules = crate::tags::Rules {
        tag_required: true,
        excluding_is_open: false,
        min_known: 1,
    };
    crate::tags::find(&alternatives, rules).map(|d| d.key)
}

/// A union member for tag detection: its own properties and those of the object its
/// `$ref` names; its tag may be required by the object the union is in.
struct Tagged<'a> {
    view: &'a View,
    parent_required: &'a [String],
}

impl crate::tags::Alternative for Tagged<'_> {
    fn keys(&self) -> Vec<&str> {
        self.view.props().map(|(key, _)| key.as_str()).collect()
    }

    fn property(&self, key: &str) -> Option<&Value> {
        self.view.tag_schema(key)
    }

    fn requires(&self, key: &str) -> bool {
        self.view.requires(key) || self.parent_required.iter().any(|k| k == key)
    }

    fn is_marked_open(&self) -> bool {
        self.view.object.get("x-symgen-unknown") == Some(&Value::Bool(true))
    }
}

/// Adjacent tagging: every known member has, besides the tag, at most one property,
/// always the same one, and no `$ref`; and at least two members have it (one member
/// with one field is an internally tagged struct variant), unless there is only one.
pub(super) fn adjacent_content(known: &[&View], tag: &str) -> Option<String> {
    let mut content: Option<String> = None;
    let mut carriers = 0;
    for view in known {
        if view.target.is_some() || view.object.contains_key("allOf") {
            return None;
        }
        let others: Vec<&String> = props_of(&view.object)
            .into_iter()
            .flat_map(|p| p.keys())
            .filter(|k| *k != tag)
            .collect();
        match others.as_slice() {
            [] => {}
            [key] => {
                match &content {
                    Some(c) if c != *key => return None,
                    _ => content = Some((*key).clone()),
                }
                carriers += 1;
            }
            _ => return None,
        }
    }
    (carriers >= 2 || (carriers == 1 && known.len() == 1))
        .then_some(content)
        .flatten()
}

/// External tagging: members are string constants or objects with exactly one
/// (required) property, with distinct keys.
pub(super) fn is_external(views: &[View]) -> bool {
    let mut keys = HashSet::new();
    let mut objects = 0;
    for view in views {
        if view.target.is_some() {
            return false;
        }
        let key = match external_key(&view.object) {
            Some((key, Some(_))) => {
                objects += 1;
                key
            }
            Some((key, None)) => key,
            None => return false,
        };
        if !keys.insert(key) {
            return false;
        }
    }
    objects > 0
}

/// For an externally tagged member: its key and (for objects) its content schema.
pub(super) fn external_key(object: &Map<String, Value>) -> Option<(String, Option<Value>)> {
    if let Some(Value::String(value)) = object.get("const") {
        return Some((value.clone(), None));
    }
    if let Some(Value::Array(values)) = object.get("enum")
        && let [Value::String(value)] = values.as_slice()
    {
        return Some((value.clone(), None));
    }
    let props = props_of(object)?;
    if props.len() != 1 {
        return None;
    }
    let (key, schema) = props.iter().next()?;
    if !string_list(object.get("required")).contains(&key.as_str()) {
        return None;
    }
    if object.contains_key("oneOf") || object.contains_key("anyOf") || object.contains_key("allOf")
    {
        return None;
    }
    Some((key.clone(), Some(schema.clone())))
}

/// The values of a member that is only an `enum` of two or more scalars.
pub(super) fn multi_value_enum(member: &Value) -> Option<&Vec<Value>> {
    let object = member.as_object()?;
    let values = object.get("enum")?.as_array()?;
    let plain = object
        .keys()
        .all(|k| k == "enum" || k == "type" || ANNOTATIONS.contains(&k.as_str()));
    (plain && values.len() > 1 && values.iter().all(|v| literal_of(v).is_some())).then_some(values)
}
