//! Integers (sized from `format` or bounds), arrays and tuples, and enums (with
//! per-value docs and input aliases).

use super::*;

/// An integer bound; fractional bounds round towards the allowed range (`up` for lower
/// bounds).
pub(super) fn to_i128(value: &Value, up: bool) -> Option<i128> {
    if let Some(i) = value.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = value.as_u64() {
        return Some(i128::from(u));
    }
    let f = value.as_f64()?;
    if !f.is_finite() || f.abs() > 1e38 {
        return None;
    }
    let rounded = if up { f.ceil() } else { f.floor() };
    // In range (checked above) and integral, so the conversion is exact.
    #[allow(clippy::cast_possible_truncation)]
    Some(rounded as i128)
}

pub(super) fn width_for(min: i128, max: i128) -> IntWidth {
    let candidates = if min >= 0 {
        [IntWidth::U8, IntWidth::U16, IntWidth::U32, IntWidth::U64]
    } else {
        [IntWidth::I8, IntWidth::I16, IntWidth::I32, IntWidth::I64]
    };
    candidates
        .into_iter()
        .find(|width| {
            let (low, high) = width.range();
            min >= low && max <= high
        })
        .unwrap_or(IntWidth::I64)
}

impl Parser<'_> {
    pub(super) fn integer(&self, object: &Map<String, Value>, pointer: &str) -> Result<IntType> {
        let bound = |key: &str, up: bool| -> Result<Option<i128>> {
            match object.get(key) {
                None => Ok(None),
                Some(value) => to_i128(value, up).map(Some).ok_or_else(|| {
                    self.err(&join(pointer, key), format!("`{key}` must be a number"))
                }),
            }
        };
        let mut minimum = bound("minimum", true)?;
        let mut maximum = bound("maximum", false)?;
        if let Some(v) = bound("exclusiveMinimum", false)? {
            minimum = Some(minimum.map_or(v + 1, |m| m.max(v + 1)));
        }
        if let Some(v) = bound("exclusiveMaximum", true)? {
            maximum = Some(maximum.map_or(v - 1, |m| m.min(v - 1)));
        }
        let format = object
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let from_format = match format.as_deref() {
            Some("int8") => Some(IntWidth::I8),
            Some("int16") => Some(IntWidth::I16),
            Some("int32") => Some(IntWidth::I32),
            Some("int64" | "int") => Some(IntWidth::I64),
            Some("uint8") => Some(IntWidth::U8),
            Some("uint16") => Some(IntWidth::U16),
            Some("uint32") => Some(IntWidth::U32),
            Some("uint64" | "uint") => Some(IntWidth::U64),
            _ => None,
        };
        let width = from_format.unwrap_or_else(|| match (minimum, maximum) {
            (Some(min), Some(max)) => width_for(min, max),
            _ => IntWidth::I64,
        });
        let rust = format
            .as_deref()
            .is_some_and(|f| crate::model::RUST_INTEGER_FORMATS.contains(&f));
        let (doc, _) = self.location(pointer);
        Ok(IntType {
            width,
            format,
            minimum,
            maximum,
            literal_only: rust || self.resources.docs[doc].integer_literal_only(),
        })
    }

    pub(super) fn array(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
    ) -> Result<Shape> {
        if let Some(prefix) = object.get("prefixItems") {
            let Some(members) = prefix.as_array() else {
                return Err(self.err(
                    &join(pointer, "prefixItems"),
                    "`prefixItems` must be an array",
                ));
            };
            if closed_tuple(object) {
                let mut items = Vec::new();
                for (i, member) in members.iter().enumerate() {
                    let hint = format!("{}Item{}", ctx.name, i);
                    items.push(self.expr(
                        member,
                        &format!("{pointer}/prefixItems/{i}"),
                        &hint,
                        ctx.name,
                    )?);
                }
                return Ok(Shape::Expr(TypeExpr::Tuple(items)));
            }
            // Open after its positions: an array of any JSON, so that no valid array is
            // refused; the positions' types are not enforced, nor what may follow them,
            // nor the length (which the unenforced walk warns about).
            self.warn(
                &join(pointer, "prefixItems"),
                "a tuple whose length varies (`prefixItems` with more items allowed, or fewer required) is typed as an array of any JSON; its positions are not enforced",
            );
            if object.get("items").is_some_and(|items| {
                items != &Value::Bool(true) && items.as_object().is_none_or(|o| !o.is_empty())
            }) {
                self.warn(
                    &join(pointer, "items"),
                    "the items after a tuple whose length varies are typed as any JSON; their schema is not enforced",
                );
            }
            return Ok(Shape::Expr(TypeExpr::Array(Box::new(TypeExpr::Any))));
        }
        let item = match object.get("items") {
            None => TypeExpr::Any,
            Some(items) => self.expr(
                items,
                &join(pointer, "items"),
                &format!("{}Item", ctx.name),
                ctx.name,
            )?,
        };
        Ok(Shape::Expr(TypeExpr::Array(Box::new(item))))
    }

    pub(super) fn enumeration(
        &mut self,
        object: &Map<String, Value>,
        values: &Value,
        pointer: &str,
    ) -> Result<Shape> {
        let enum_pointer = join(pointer, "enum");
        let Some(values) = values.as_array() else {
            return Err(self.err(&enum_pointer, "`enum` must be an array"));
        };
        // A value of a kind `type` beside the enum excludes is never valid: it is not one
        // of the values (`{"type": "boolean", "enum": [true, []]}` is `true`). Where no
        // value is left, no value is valid, which no type says: the values are read as
        // written (an object or array among them makes the enum any JSON, warned).
        let types = types_of(object.get("type"))
            .filter(|types| values.iter().any(|value| of_types(value, types)));
        let mut literals = Vec::new();
        for (i, value) in values.iter().enumerate() {
            if types.as_ref().is_some_and(|types| !of_types(value, types)) {
                continue;
            }
            let Some(literal) = literal_of(value) else {
                self.warn(
                    &format!("{enum_pointer}/{i}"),
                    "an `enum` with array or object values is typed as any JSON value; the values are not enforced",
                );
                return Ok(Shape::Expr(TypeExpr::Any));
            };
            if !literals.contains(&literal) {
                literals.push(literal);
            }
        }
        let entries = literals
            .into_iter()
            .map(|value| (value, Docs::default()))
            .collect();
        self.enum_shape(object, entries, pointer)
    }

    /// `oneOf: [{const, description}, ...]`: a string enum with a doc per value.
    pub(super) fn documented_enum(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Shape>> {
        let Some(members) = object.get("oneOf").or_else(|| object.get("anyOf")) else {
            return Ok(None);
        };
        let Some(members) = members.as_array() else {
            return Ok(None);
        };
        let mut entries = Vec::new();
        for member in members {
            let Some(member) = member.as_object() else {
                return Ok(None);
            };
            let only_const = member.keys().all(|k| {
                k == "const" || k == "type" || ANNOTATIONS.contains(&k.as_str()) || is_extension(k)
            });
            let Some(literal) = member.get("const").and_then(literal_of) else {
                return Ok(None);
            };
            if !only_const {
                return Ok(None);
            }
            entries.push((literal, docs_of(member, true)));
        }
        if entries.is_empty() {
            return Ok(None);
        }
        self.enum_shape(object, entries, pointer).map(Some)
    }

    pub(super) fn enum_shape(
        &mut self,
        object: &Map<String, Value>,
        entries: Vec<(Literal, Docs)>,
        pointer: &str,
    ) -> Result<Shape> {
        let mut aliases: HashMap<Literal, Literal> = HashMap::new();
        if let Some(map) = object.get("x-symgen-aliases") {
            let Some(map) = map.as_object() else {
                return Err(self.err(
                    &join(pointer, "x-symgen-aliases"),
                    "`x-symgen-aliases` of an enum must map each alias to its canonical value",
                ));
            };
            for (alias, canonical) in map {
                let Some(canonical) = literal_of(canonical) else {
                    return Err(self.err(
                        &join(&join(pointer, "x-symgen-aliases"), alias),
                        "an enum alias must map to a scalar",
                    ));
                };
                aliases.insert(Literal::String(alias.clone()), canonical);
            }
        }
        let nullable = entries.iter().any(|(v, _)| *v == Literal::Null);
        let mut values: Vec<EnumValue> = Vec::new();
        for (value, docs) in entries.iter().filter(|(v, _)| *v != Literal::Null) {
            if aliases.contains_key(value) {
                continue;
            }
            values.push(EnumValue {
                value: value.clone(),
                docs: docs.clone(),
                aliases: Vec::new(),
            });
        }
        for (value, _) in &entries {
            if let Some(canonical) = aliases.get(value) {
                let Some(target) = values.iter_mut().find(|v| v.value == *canonical) else {
                    return Err(self.err(
                        &join(pointer, "x-symgen-aliases"),
                        format!(
                            "alias {} maps to {}, which is not a value of this enum",
                            value.to_json(),
                            canonical.to_json()
                        ),
                    ));
                };
                target.aliases.push(value.clone());
            }
        }
        let shape = match values.as_slice() {
            [] => Shape::Expr(TypeExpr::Null),
            [single] if single.aliases.is_empty() => {
                Shape::Expr(TypeExpr::Literal(single.value.clone()))
            }
            _ => Shape::Kind {
                kind: TypeKind::Enum(Enum {
                    values,
                    open: false,
                }),
                nullable: false,
            },
        };
        Ok(
            if nullable && !matches!(shape, Shape::Expr(TypeExpr::Null)) {
                make_nullable(shape)
            } else {
                shape
            },
        )
    }
}

impl Parser<'_> {
    /// `{type: string, anyOf: [<values>, {x-symgen-unknown: true, ...}]}`: the values
    /// (an `enum`, or documented `const`s) and any other string: an open [`Enum`].
    pub(super) fn maybe_open_enum(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Shape>> {
        let Some((key, members)) = ["anyOf", "oneOf"]
            .iter()
            .find_map(|k| Some((*k, object.get(*k)?.as_array()?)))
        else {
            return Ok(None);
        };
        let (open, closed): (Vec<&Value>, Vec<&Value>) = members
            .iter()
            .partition(|m| m.get("x-symgen-unknown") == Some(&Value::Bool(true)));
        let ([_], [values]) = (open.as_slice(), closed.as_slice()) else {
            return Ok(None);
        };
        let Some(values) = values.as_object() else {
            return Ok(None);
        };
        let index = members
            .iter()
            .position(|m| std::ptr::eq(m, *closed.first().unwrap_or(&&Value::Null)))
            .unwrap_or(0);
        let member_pointer = format!("{pointer}/{key}/{index}");
        let mut shape = match values.get("enum") {
            Some(list) => self.enumeration(object, list, &member_pointer)?,
            None => match self.documented_enum(values, &member_pointer)? {
                Some(shape) => shape,
                None => return Ok(None),
            },
        };
        match &mut shape {
            Shape::Kind {
                kind: TypeKind::Enum(e),
                ..
            } if e.is_string() => e.open = true,
            _ => return Ok(None),
        }
        Ok(Some(shape))
    }
}

/// Whether `value` is of one of the JSON Schema kinds `types` names (`integer`: a
/// number with no fraction, as JSON Schema counts `1.0`).
fn of_types(value: &Value, types: &HashSet<&str>) -> bool {
    types.iter().any(|&ty| match (ty, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("number", Value::Number(_)) | ("array", Value::Array(_)) => true,
        ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    })
}
