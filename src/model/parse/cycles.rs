//! Rejects types that are only aliases of themselves (`A = B`, `B = A | null`).

use super::*;

impl Parser<'_> {
    /// Rejects types that are only aliases of themselves (`A = B`, `B = A | null`), which
    /// no language can represent.
    pub(super) fn check_cycles(&self, model: &Model) -> Result<()> {
        let direct = |t: &NamedType| -> Vec<String> {
            let mut out = Vec::new();
            let push = |expr: &TypeExpr, out: &mut Vec<String>| {
                if let TypeExpr::Ref(name) = expr.non_null() {
                    out.push(name.clone());
                }
            };
            match &t.kind {
                TypeKind::Alias(expr) => push(expr, &mut out),
                TypeKind::Union(union) if union.tagging == Tagging::Untagged => {
                    for variant in &union.variants {
                        if let Payload::Type(expr) = &variant.payload {
                            push(expr, &mut out);
                        }
                    }
                }
                _ => {}
            }
            out
        };
        // Iterative depth-first search with colours: 0 new, 1 on stack, 2 done.
        let mut colour = vec![0u8; model.types.len()];
        for start in 0..model.types.len() {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, Vec<String>, usize)> =
                vec![(start, direct(&model.types[start]), 0)];
            colour[start] = 1;
            while let Some(top) = stack.last_mut() {
                if top.2 == top.1.len() {
                    colour[top.0] = 2;
                    stack.pop();
                    continue;
                }
                let target = top.1[top.2].clone();
                top.2 += 1;
                let Some(&t) = model.index.get(&target) else {
                    continue;
                };
                match colour[t] {
                    0 => {
                        colour[t] = 1;
                        stack.push((t, direct(&model.types[t]), 0));
                    }
                    1 => {
                        let cycle: Vec<&str> = stack
                            .iter()
                            .map(|(n, _, _)| model.types[*n].name.as_str())
                            .skip_while(|n| *n != target.as_str())
                            .chain([target.as_str()])
                            .collect();
                        let ty = &model.types[t];
                        return Err(self.err(
                            &ty.pointer,
                            format!(
                                "circular type alias {}: a type cannot be only another name (or a union) of itself",
                                cycle.join(" → ")
                            ),
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}
