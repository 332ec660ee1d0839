//! Walking the model's type graph, for every backend: the type expressions inside a
//! type expression, the ones a named type uses, and the named types it refers to.

use std::collections::BTreeSet;

use super::{Additional, NamedType, Payload, Reply, TypeExpr, TypeKind};

impl TypeExpr {
    /// The type expressions directly inside this one (not through references).
    pub fn children(&self) -> Vec<&TypeExpr> {
        match self {
            TypeExpr::Array(inner) | TypeExpr::Map(inner) | TypeExpr::Nullable(inner) => {
                vec![inner]
            }
            TypeExpr::Tuple(items) => items.iter().collect(),
            TypeExpr::Any
            | TypeExpr::Null
            | TypeExpr::Bool
            | TypeExpr::Integer(_)
            | TypeExpr::Number(_)
            | TypeExpr::String(_)
            | TypeExpr::Literal(_)
            | TypeExpr::Ref(_) => Vec::new(),
        }
    }

    /// Whether this expression or one inside it (not through references) satisfies
    /// `test`.
    pub fn any(&self, test: &mut impl FnMut(&TypeExpr) -> bool) -> bool {
        test(self) || self.children().into_iter().any(|child| child.any(test))
    }

    /// Every named type this expression refers to (not through references).
    pub fn references(&self) -> BTreeSet<&str> {
        let mut names = BTreeSet::new();
        let mut stack = vec![self];
        while let Some(expr) = stack.pop() {
            if let TypeExpr::Ref(name) = expr {
                names.insert(name.as_str());
            }
            stack.extend(expr.children());
        }
        names
    }
}

impl NamedType {
    /// Every type expression this type uses directly: field types, variant payloads and
    /// reply data, the value type of extra keys, an alias's target.
    pub fn exprs(&self) -> Vec<&TypeExpr> {
        let mut out = Vec::new();
        match &self.kind {
            TypeKind::Record(record) => {
                out.extend(record.fields.iter().map(|f| &f.ty));
                if let Additional::Typed(value) = &record.additional {
                    out.push(value);
                }
            }
            TypeKind::Union(union) => {
                out.extend(union.fields.iter().map(|f| &f.ty));
                for variant in &union.variants {
                    match &variant.payload {
                        Payload::Unit => {}
                        Payload::Fields(fields) => out.extend(fields.iter().map(|f| &f.ty)),
                        Payload::Type(expr) => out.push(expr),
                        Payload::Content(field) => out.push(&field.ty),
                    }
                    if let Reply::Data(expr) = &variant.reply {
                        out.push(expr);
                    }
                }
            }
            TypeKind::Alias(expr) => out.push(expr),
            TypeKind::Enum(_) => {}
        }
        out
    }

    /// Every named type this one refers to directly.
    pub fn references(&self) -> BTreeSet<&str> {
        self.exprs()
            .into_iter()
            .flat_map(TypeExpr::references)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{IntType, IntWidth, TypeExpr};

    #[test]
    fn walks_inside_but_not_through_references() {
        let int64 = TypeExpr::Integer(IntType {
            width: IntWidth::I64,
            format: None,
            minimum: None,
            maximum: None,
            literal_only: false,
        });
        let expr = TypeExpr::Map(Box::new(TypeExpr::Tuple(vec![
            TypeExpr::Ref("A".into()),
            int64.nullable(),
        ])));
        assert!(expr.any(&mut |e| matches!(e, TypeExpr::Integer(i) if i.width.bits() == 64)));
        assert_eq!(expr.references().into_iter().collect::<Vec<_>>(), ["A"]);
    }
}
