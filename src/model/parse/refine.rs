//! The conjunction of two schemas of one property: what an object inherits through
//! `allOf` (or a union's shared properties) and what it says again about the same key.
//! A value must satisfy both; where one type is a subset of the other, the narrower is
//! the property's type.

use super::*;

/// What a type reference names, as far as a conjunction needs to know it.
pub(super) type KindOf<'a> = dyn FnMut(&str) -> Option<TypeKind> + 'a;

/// How deep a conjunction follows references and containers: two types that contain
/// themselves (`A = [A]` against `B = [B]`) would otherwise be compared forever.
const MAX_DEPTH: usize = 32;

/// The type of a value that satisfies both `a` and `b`, when one of the model's types
/// says exactly that; `None` when neither contains the other (the caller warns), or
/// when telling would take more than [`MAX_DEPTH`] steps.
pub(super) fn conjunction(
    a: &TypeExpr,
    b: &TypeExpr,
    kind_of: &mut KindOf<'_>,
) -> Option<TypeExpr> {
    meet(a, b, kind_of, 0)
}

/// [`conjunction`], `depth` steps in.
fn meet(a: &TypeExpr, b: &TypeExpr, kind_of: &mut KindOf<'_>, depth: usize) -> Option<TypeExpr> {
    if a == b {
        return Some(a.clone());
    }
    if depth > MAX_DEPTH {
        return None;
    }
    let deeper = depth + 1;
    match (a, b) {
        (TypeExpr::Any, other) | (other, TypeExpr::Any) => Some(other.clone()),
        (TypeExpr::Nullable(x), TypeExpr::Nullable(y)) => {
            meet(x, y, kind_of, deeper).map(TypeExpr::nullable)
        }
        (TypeExpr::Nullable(x), other) | (other, TypeExpr::Nullable(x)) => match other {
            TypeExpr::Null | TypeExpr::Literal(Literal::Null) => Some(TypeExpr::Null),
            _ => meet(x, other, kind_of, deeper),
        },
        (TypeExpr::Literal(literal), other) | (other, TypeExpr::Literal(literal)) => {
            admits(other, literal, kind_of, deeper).then(|| TypeExpr::Literal(literal.clone()))
        }
        (TypeExpr::Number(number), TypeExpr::Integer(int))
        | (TypeExpr::Integer(int), TypeExpr::Number(number)) => number
            .format
            .is_none()
            .then(|| TypeExpr::Integer(int.clone())),
        (TypeExpr::Integer(x), TypeExpr::Integer(y)) => narrower_int(x, y),
        (TypeExpr::Number(x), TypeExpr::Number(y)) => match (&x.format, &y.format) {
            (None, _) => Some(b.clone()),
            (_, None) => Some(a.clone()),
            _ => None,
        },
        (TypeExpr::String(x), TypeExpr::String(y)) => match (&x.format, &y.format) {
            (None, _) => Some(b.clone()),
            (_, None) => Some(a.clone()),
            _ => None,
        },
        (TypeExpr::Array(x), TypeExpr::Array(y)) => {
            meet(x, y, kind_of, deeper).map(|item| TypeExpr::Array(Box::new(item)))
        }
        (TypeExpr::Map(x), TypeExpr::Map(y)) => {
            meet(x, y, kind_of, deeper).map(|value| TypeExpr::Map(Box::new(value)))
        }
        (TypeExpr::Map(value), TypeExpr::Ref(name))
        | (TypeExpr::Ref(name), TypeExpr::Map(value))
            if **value == TypeExpr::Any =>
        {
            is_object(name, kind_of).then(|| TypeExpr::Ref(name.clone()))
        }
        (TypeExpr::Ref(x), TypeExpr::Ref(y)) => {
            let (x_kind, y_kind) = (kind_of(x)?, kind_of(y)?);
            match (&x_kind, &y_kind) {
                (TypeKind::Enum(ex), TypeKind::Enum(ey)) if values_within(ex, ey) => {
                    Some(a.clone())
                }
                (TypeKind::Enum(ex), TypeKind::Enum(ey)) if values_within(ey, ex) => {
                    Some(b.clone())
                }
                (TypeKind::Alias(ax), _) => meet(ax, b, kind_of, deeper).map(|t| keep(a, ax, t)),
                (_, TypeKind::Alias(ay)) => meet(a, ay, kind_of, deeper).map(|t| keep(b, ay, t)),
                (TypeKind::Union(union), _) if one_alternative(union, b, kind_of, deeper) => {
                    Some(b.clone())
                }
                (_, TypeKind::Union(union)) if one_alternative(union, a, kind_of, deeper) => {
                    Some(a.clone())
                }
                _ => None,
            }
        }
        (TypeExpr::Ref(name), other) | (other, TypeExpr::Ref(name)) => {
            let reference = TypeExpr::Ref(name.clone());
            match kind_of(name)? {
                TypeKind::Alias(aliased) => {
                    meet(&aliased, other, kind_of, deeper).map(|t| keep(&reference, &aliased, t))
                }
                TypeKind::Enum(values) => match other {
                    TypeExpr::String(StringType { format: None }) if values.is_string() => {
                        Some(reference)
                    }
                    _ => None,
                },
                TypeKind::Union(union) if one_alternative(&union, other, kind_of, deeper) => {
                    Some(other.clone())
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The alias's name when the conjunction is the aliased type itself.
fn keep(reference: &TypeExpr, aliased: &TypeExpr, conjunction: TypeExpr) -> TypeExpr {
    if &conjunction == aliased {
        reference.clone()
    } else {
        conjunction
    }
}

/// Whether every value of type `ty` may be `literal` (the literal is one of its values).
fn admits(ty: &TypeExpr, literal: &Literal, kind_of: &mut KindOf<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (ty, literal) {
        (TypeExpr::Any, _) => true,
        (TypeExpr::Null, Literal::Null) => true,
        (TypeExpr::Nullable(inner), literal) => {
            *literal == Literal::Null || admits(inner, literal, kind_of, depth + 1)
        }
        (TypeExpr::Bool, Literal::Bool(_)) => true,
        (TypeExpr::String(StringType { format: None }), Literal::String(_)) => true,
        (TypeExpr::Number(NumberType { format: None }), Literal::Number(_)) => true,
        (TypeExpr::Integer(int), Literal::Number(number)) => {
            let value = number
                .as_i64()
                .map(i128::from)
                .or_else(|| number.as_u64().map(i128::from));
            value.is_some_and(|value| {
                let (low, high) = int_range(int);
                (low..=high).contains(&value)
            })
        }
        (TypeExpr::Literal(other), literal) => other == literal,
        (TypeExpr::Ref(name), literal) => match kind_of(name) {
            Some(TypeKind::Enum(values)) => {
                values.open && matches!(literal, Literal::String(_))
                    || values.values.iter().any(|v| &v.value == literal)
            }
            Some(TypeKind::Alias(aliased)) => admits(&aliased, literal, kind_of, depth + 1),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `narrow` lies within one alternative of an untagged union (a property
/// typed "a string or an object" refined to one record).
fn one_alternative(
    union: &Union,
    narrow: &TypeExpr,
    kind_of: &mut KindOf<'_>,
    depth: usize,
) -> bool {
    union.tagging == Tagging::Untagged
        && union.fields.is_empty()
        && union.variants.iter().any(|variant| match &variant.payload {
            Payload::Type(alternative) => {
                meet(alternative, narrow, kind_of, depth).as_ref() == Some(narrow)
            }
            _ => false,
        })
}

/// Whether every value of enum `inner` is one of `outer`'s.
fn values_within(inner: &Enum, outer: &Enum) -> bool {
    (outer.open || !inner.open)
        && inner.values.iter().all(|value| {
            outer.values.iter().any(|o| o.value == value.value)
                || outer.open && matches!(value.value, Literal::String(_))
        })
}

/// Whether the named type only ever describes JSON objects.
fn is_object(name: &str, kind_of: &mut KindOf<'_>) -> bool {
    match kind_of(name) {
        Some(TypeKind::Record(_)) => true,
        Some(TypeKind::Union(union)) => {
            matches!(
                union.tagging,
                Tagging::Internal { .. } | Tagging::Adjacent { .. }
            )
        }
        Some(TypeKind::Alias(TypeExpr::Map(_))) => true,
        Some(TypeKind::Alias(TypeExpr::Ref(next))) => is_object(&next, kind_of),
        _ => false,
    }
}

/// The allowed range of an integer type: its bounds within its width's range.
fn int_range(int: &IntType) -> (i128, i128) {
    let (low, high) = int.width.range();
    (
        int.minimum.map_or(low, |m| m.max(low)),
        int.maximum.map_or(high, |m| m.min(high)),
    )
}

/// Of two integer types, the one whose range lies within the other's.
fn narrower_int(x: &IntType, y: &IntType) -> Option<TypeExpr> {
    let ((xl, xh), (yl, yh)) = (int_range(x), int_range(y));
    if yl <= xl && xh <= yh {
        Some(TypeExpr::Integer(x.clone()))
    } else if xl <= yl && yh <= xh {
        Some(TypeExpr::Integer(y.clone()))
    } else {
        None
    }
}
