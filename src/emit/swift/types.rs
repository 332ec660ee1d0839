//! Swift spellings of model type expressions, literals and defaults.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::model::{self, IntType, IntWidth, Literal, Model, TypeExpr, TypeKind};

use super::layout::string_literal;

/// What a module's generated code can refer to: the Swift name of every model type, and
/// the names nested declarations shadow in the current scope.
#[derive(Debug, Clone)]
pub struct TypeContext<'a> {
    /// The model being rendered.
    pub model: &'a Model,
    /// The Swift module name (used to qualify shadowed names).
    pub module: &'a str,
    /// Model type name → Swift type name.
    pub names: &'a BTreeMap<String, String>,
    /// Model type name → the module that declares it, for the types another module of
    /// the package renders under the same name.
    pub homes: &'a BTreeMap<String, String>,
    /// Swift type names declared in the current nested scope; references to top-level
    /// types of the same name are qualified with the module name.
    pub shadowed: BTreeSet<String>,
    /// Fields stored in an `Indirect` box to break struct recursion.
    pub boxed: &'a super::recursion::Boxed,
    /// Unions whose payloads store so much inline that the enum is `indirect`
    /// (storage.rs).
    pub large: &'a BTreeSet<String>,
    /// Struct fields whose type stores so much inline that they are `@Boxed`
    /// (storage.rs).
    pub large_fields: &'a super::recursion::Boxed,
}

impl<'a> TypeContext<'a> {
    /// The same context inside a scope that declares `nested` type names.
    pub fn nested(&self, nested: impl IntoIterator<Item = String>) -> Self {
        let mut shadowed = self.shadowed.clone();
        shadowed.extend(nested);
        Self {
            shadowed,
            ..self.clone()
        }
    }

    /// The error for an unsupported construct at `pointer`.
    pub fn error(&self, pointer: &str, message: impl Into<String>) -> model::Error {
        model::Error::new(&self.model.file, pointer, message)
    }

    /// The Swift name of the model type `name`, qualified when shadowed.
    pub fn type_ref(&self, name: &str, pointer: &str) -> Result<String, model::Error> {
        let swift = self
            .names
            .get(name)
            .ok_or_else(|| self.error(pointer, format!("reference to unknown type `{name}`")))?;
        Ok(if self.shadowed.contains(swift) {
            let module = self.homes.get(name).map_or(self.module, String::as_str);
            format!("{module}.{swift}")
        } else {
            swift.clone()
        })
    }

    /// The Swift type of `expr` (optional when nullable).
    pub fn swift_type(&self, expr: &TypeExpr, pointer: &str) -> Result<String, model::Error> {
        Ok(match expr {
            TypeExpr::Any | TypeExpr::Null => "JSONValue".to_owned(),
            TypeExpr::Bool => "Bool".to_owned(),
            TypeExpr::Integer(int) => int_type(int.width).to_owned(),
            TypeExpr::Number(_) => "Double".to_owned(),
            TypeExpr::String(_) => "String".to_owned(),
            TypeExpr::Literal(literal) => literal_type(literal).to_owned(),
            TypeExpr::Array(item) => format!("[{}]", self.swift_type(item, pointer)?),
            TypeExpr::Map(value) => format!("[String: {}]", self.swift_type(value, pointer)?),
            TypeExpr::Ref(name) => self.type_ref(name, pointer)?,
            TypeExpr::Nullable(inner) => format!("{}?", self.swift_type(inner, pointer)?),
            TypeExpr::Tuple(items) => {
                if items.is_empty() || items.len() > MAX_TUPLE {
                    return Err(self.error(
                        pointer,
                        format!(
                            "the Swift generator supports tuples (`prefixItems`) of 1 to \
                             {MAX_TUPLE} items, not {}",
                            items.len()
                        ),
                    ));
                }
                let items = items
                    .iter()
                    .map(|item| self.swift_type(item, pointer))
                    .collect::<Result<Vec<_>, _>>()?;
                format!("Tuple{}<{}>", items.len(), items.join(", "))
            }
        })
    }

    /// The named type `name` refers to, after aliases.
    pub fn resolve(&self, name: &str) -> Option<&'a model::NamedType> {
        self.model.resolve(name)
    }

    /// A Swift expression for the JSON `value` as a value of type `expr` (field
    /// defaults): a literal where Swift has one, else decoded from its JSON text.
    pub fn default_literal(
        &self,
        expr: &TypeExpr,
        value: &Value,
        pointer: &str,
    ) -> Result<String, model::Error> {
        let expr = expr.non_null();
        let unsupported = || self.decoded_default(expr, value, pointer);
        Ok(match (expr, value) {
            (_, Value::Null) => "nil".to_owned(),
            (TypeExpr::Bool, Value::Bool(b)) => b.to_string(),
            (TypeExpr::Integer(_) | TypeExpr::Number(_), Value::Number(n)) => {
                grouped(&n.to_string())
            }
            (TypeExpr::String(_), Value::String(s)) => string_literal(s),
            (TypeExpr::Array(_), Value::Array(items)) if items.is_empty() => "[]".to_owned(),
            (TypeExpr::Map(_), Value::Object(map)) if map.is_empty() => "[:]".to_owned(),
            (TypeExpr::Ref(name), Value::String(s)) => {
                let Some(target) = self.resolve(name) else {
                    return unsupported();
                };
                match &target.kind {
                    TypeKind::Enum(e) => {
                        let Some(index) = e.values.iter().position(|v| v.value.as_str() == Some(s))
                        else {
                            return unsupported();
                        };
                        let cases = super::enums::case_names(e);
                        format!(".{}", cases[index])
                    }
                    _ => return self.decoded_default(expr, value, pointer),
                }
            }
            _ => return self.decoded_default(expr, value, pointer),
        })
    }

    /// A default that is no Swift literal: decoded from its JSON text (the model
    /// dropped defaults that are not values of their type).
    fn decoded_default(
        &self,
        expr: &TypeExpr,
        value: &Value,
        pointer: &str,
    ) -> Result<String, model::Error> {
        let swift_type = self.swift_type(expr, pointer)?;
        Ok(format!(
            "decodeDefault({swift_type}.self, {})",
            string_literal(&value.to_string())
        ))
    }
}

/// The largest tuple the runtime declares a `TupleN` type for.
pub const MAX_TUPLE: usize = 4;

/// The Swift integer type of a width.
pub fn int_type(width: IntWidth) -> &'static str {
    match width {
        IntWidth::I8 => "Int8",
        IntWidth::I16 => "Int16",
        IntWidth::I32 => "Int32",
        IntWidth::I64 => "Int64",
        IntWidth::U8 => "UInt8",
        IntWidth::U16 => "UInt16",
        IntWidth::U32 => "UInt32",
        IntWidth::U64 => "UInt64",
    }
}

/// A Swift range expression for the bounds of `int` that its storage type does not
/// already enforce (`1...UInt32.max`), or `None` when there are none.
pub fn int_bounds(int: &IntType) -> Option<String> {
    let ty = int_type(int.width);
    let (low, high) = int.width.range();
    let min = int.minimum.filter(|&m| m > low);
    let max = int.maximum.filter(|&m| m < high);
    match (min, max) {
        (None, None) => None,
        (Some(min), None) => Some(format!("{}...{ty}.max", grouped(&min.to_string()))),
        (None, Some(max)) => Some(format!("{ty}.min...{}", grouped(&max.to_string()))),
        (Some(min), Some(max)) => Some(format!(
            "{}...{}",
            grouped(&min.to_string()),
            grouped(&max.to_string())
        )),
    }
}

impl<'a> TypeContext<'a> {
    /// The integer type inside `expr` when it is an integer, an array of integers or a
    /// nullable one, directly or through type aliases (the shapes the bound checks
    /// support).
    pub fn bounded_int<'e>(&self, expr: &'e TypeExpr) -> Option<&'e IntType>
    where
        'a: 'e,
    {
        let direct = |expr: &'e TypeExpr| -> Option<&'e IntType> {
            let mut current = expr.non_null();
            for _ in 0..=self.model.types.len() {
                match current {
                    TypeExpr::Integer(int) => return Some(int),
                    TypeExpr::Ref(name) => match &self.model.get(name)?.kind {
                        TypeKind::Alias(inner) => current = inner.non_null(),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            None
        };
        match expr.non_null() {
            TypeExpr::Array(item) => direct(item),
            other => direct(other),
        }
    }

    /// Whether the integers of `expr` (an integer, an array or map of them, a tuple's
    /// integer items, possibly nullable, directly or through type aliases) are JSON
    /// Schema's own, not read from an integer literal only (a Rust `format`, a draft-04
    /// document): they take a whole number written as a float (`1.0`), which serde
    /// refuses for a Rust integer (`wholeFloats:` of the runtime's decode calls).
    pub fn takes_whole_floats(&self, expr: &TypeExpr) -> bool {
        let item = match expr.non_null() {
            TypeExpr::Map(item) => item.as_ref(),
            TypeExpr::Tuple(items) => {
                return items
                    .iter()
                    .filter_map(|item| self.bounded_int(item))
                    .any(|int| !int.literal_only);
            }
            other => other,
        };
        self.bounded_int(item).is_some_and(|int| !int.literal_only)
    }

    /// How many aliases of a nullable type `expr` goes through before it reaches its
    /// integer (`LineLength = Int64?`): each is one more optional layer on the Swift
    /// value than the field's own.
    pub fn optional_aliases(&self, expr: &TypeExpr) -> usize {
        let mut current = match expr.non_null() {
            TypeExpr::Array(item) => item.as_ref(),
            other => other,
        };
        let mut layers = 0;
        for _ in 0..=self.model.types.len() {
            match current.non_null() {
                TypeExpr::Ref(name) => match self.model.get(name).map(|t| &t.kind) {
                    Some(TypeKind::Alias(inner)) => {
                        if inner.is_nullable() {
                            layers += 1;
                        }
                        current = inner;
                    }
                    _ => break,
                },
                _ => break,
            }
        }
        layers
    }
}

/// The Swift type of a literal value.
pub fn literal_type(literal: &Literal) -> &'static str {
    match literal {
        Literal::String(_) => "String",
        Literal::Bool(_) => "Bool",
        Literal::Number(n) if n.is_i64() => "Int64",
        Literal::Number(n) if n.is_u64() => "UInt64",
        Literal::Number(_) => "Double",
        Literal::Null => "JSONValue",
    }
}

/// A Swift expression of the literal's [`literal_type`].
pub fn literal_value(literal: &Literal) -> String {
    match literal {
        Literal::String(s) => string_literal(s),
        Literal::Bool(b) => b.to_string(),
        Literal::Number(n) => grouped(&n.to_string()),
        Literal::Null => "JSONValue.null".to_owned(),
    }
}

/// An integer literal as swift-format wants it: seven digits or more grouped by three
/// with `_` (`9_007_199_254_740_991`); anything else (a fraction, an exponent) as it is.
pub fn grouped(number: &str) -> String {
    let (sign, digits) = match number.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", number),
    };
    if digits.len() < 7 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return number.to_owned();
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// A `JSONValue` expression for a literal.
pub fn literal_json(literal: &Literal) -> String {
    match literal {
        Literal::Null => ".null".to_owned(),
        _ => format!("{}({})", json_case(literal), literal_value(literal)),
    }
}

/// The `JSONValue` case that wraps a value of the literal's [`literal_type`] (empty for
/// `null`, whose type is `JSONValue` itself).
pub fn json_case(literal: &Literal) -> &'static str {
    match literal {
        Literal::String(_) => ".string",
        Literal::Bool(_) => ".bool",
        Literal::Number(n) if n.is_i64() => ".integer",
        Literal::Number(n) if n.is_u64() => ".unsignedInteger",
        Literal::Number(_) => ".number",
        Literal::Null => "",
    }
}
