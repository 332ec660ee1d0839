//! TypeScript text for types, properties, aliases and doc comments, laid out the way
//! prettier (default options: 80 columns, 2-space indent) prints them, so the generated
//! files pass `prettier --check` without running prettier. Only the shapes symgen emits
//! are covered; `scripts/test-ts.sh` runs prettier over every output to keep it honest.

/// prettier's default print width.
pub const WIDTH: usize = 80;

/// A rendered type, with enough structure to break long lines like prettier does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ts {
    /// Never broken: names, primitives, literals, arrays.
    Atom(String),
    /// `A | B | …` (members are atoms or objects, printed flat).
    Union(Vec<Ts>),
    /// `{ [key: string]: T }`.
    Map(Box<Ts>),
    /// `[A, B]`.
    Tuple(Vec<Ts>),
}

impl Ts {
    /// The one-line form.
    pub fn flat(&self) -> String {
        match self {
            Ts::Atom(text) => text.clone(),
            Ts::Union(members) => members.iter().map(Ts::flat).collect::<Vec<_>>().join(" | "),
            Ts::Map(value) => format!("{{ [key: string]: {} }}", value.flat()),
            Ts::Tuple(items) => format!(
                "[{}]",
                items.iter().map(Ts::flat).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// As an array element type: unions need parentheses.
    pub fn array_of(&self) -> Ts {
        match self {
            Ts::Union(_) => Ts::Atom(format!("({})[]", self.flat())),
            other => Ts::Atom(format!("{}[]", other.flat())),
        }
    }

    /// `self | null`.
    pub fn or_null(self) -> Ts {
        match self {
            Ts::Union(mut members) => {
                members.push(Ts::Atom("null".into()));
                Ts::Union(members)
            }
            other => Ts::Union(vec![other, Ts::Atom("null".into())]),
        }
    }

    /// prettier "hugs" (never breaks) a union of one plain name plus `null`s.
    fn is_hugged(&self) -> bool {
        let Ts::Union(members) = self else {
            return false;
        };
        let mut names = members
            .iter()
            .filter(|m| !matches!(m, Ts::Atom(t) if t == "null" || t == "undefined"));
        match (names.next(), names.next()) {
            (Some(Ts::Atom(name)), None) => is_plain_name(name),
            _ => false,
        }
    }
}

fn is_plain_name(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn width(text: &str) -> usize {
    text.chars().count()
}

pub(crate) fn fits(line: &str) -> bool {
    width(line) <= WIDTH
}

fn pad(indent: usize) -> String {
    " ".repeat(indent)
}

fn tuple_lines(indent: usize, items: &[Ts]) -> String {
    let lines: Vec<String> = items
        .iter()
        .map(|i| {
            format!(
                "{}{},",
                pad(indent + 2),
                layout(i, indent + 2, indent + 2, 1)
            )
        })
        .collect();
    format!("[\n{}\n{}]", lines.join("\n"), pad(indent))
}

/// `ty` starting at `column` and followed by `tail` more characters on its last line,
/// broken like prettier when that does not fit; continuation lines are indented from
/// `indent`.
fn layout(ty: &Ts, indent: usize, column: usize, tail: usize) -> String {
    let flat = ty.flat();
    if column + width(&flat) + tail <= WIDTH {
        return flat;
    }
    match ty {
        Ts::Atom(_) => flat,
        Ts::Tuple(items) => tuple_lines(indent, items),
        Ts::Map(value) => format!(
            "{{\n{}\n{}}}",
            property(indent + 2, "[key: string]", value),
            pad(indent)
        ),
        Ts::Union(members) => {
            let lines: Vec<String> = members
                .iter()
                .map(|m| format!("| {}", layout(m, indent + 2, indent + 2, 0)))
                .collect();
            lines.join(&format!("\n{}", pad(indent)))
        }
    }
}

/// The lines of a union broken one member per line at `indent` (`| A`), the last one
/// followed by `end`.
fn union_lines(indent: usize, members: &[Ts], end: &str) -> String {
    let inner = pad(indent);
    let count = members.len();
    members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let end = if i + 1 == count { end } else { "" };
            format!(
                "{inner}| {}{end}",
                layout(m, indent + 2, indent + 2, width(end))
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A property signature `key: T;` (key already quoted, with `?` when optional) at
/// `indent`, broken like prettier when too long. No trailing newline.
pub fn property(indent: usize, key: &str, ty: &Ts) -> String {
    let p = pad(indent);
    let line = format!("{p}{key}: {};", ty.flat());
    if fits(&line) || ty.is_hugged() {
        return line;
    }
    match ty {
        Ts::Map(value) => format!(
            "{p}{key}: {{\n{}\n{p}}};",
            property(indent + 2, "[key: string]", value)
        ),
        Ts::Tuple(items) => format!("{p}{key}: {};", tuple_lines(indent, items)),
        Ts::Union(members) => {
            let inner = pad(indent + 2);
            let moved = format!("{inner}{};", ty.flat());
            if fits(&moved) {
                return format!("{p}{key}:\n{moved}");
            }
            format!("{p}{key}:\n{}", union_lines(indent + 2, members, ";"))
        }
        // A long index signature: prettier breaks its brackets.
        Ts::Atom(_) if key == "[key: string]" => {
            format!("{p}[\n{p}  key: string\n{p}]: {};", ty.flat())
        }
        Ts::Atom(_) => line,
    }
}

/// `export type Name = T;`, broken like prettier when too long. `name` may carry type
/// parameters. No trailing newline.
pub fn type_alias(name: &str, ty: &Ts) -> String {
    let line = format!("export type {name} = {};", ty.flat());
    if fits(&line) {
        return line;
    }
    if let Some((base, params)) = name.split_once('<')
        && !fits(&format!("export type {name} ="))
    {
        // A long head breaks its type parameters first.
        let params = params.trim_end_matches('>');
        return format!("export type {base}<\n  {params},\n> = {};", ty.flat());
    }
    let moved = format!("  {};", ty.flat());
    match ty {
        Ts::Union(members) if !fits(&moved) && !ty.is_hugged() => {
            format!("export type {name} =\n{}", union_lines(2, members, ";"))
        }
        Ts::Map(value) => format!(
            "export type {name} = {{\n{}\n}};",
            property(2, "[key: string]", value)
        ),
        Ts::Tuple(items) => format!("export type {name} = {};", tuple_lines(0, items)),
        _ => format!("export type {name} =\n{moved}"),
    }
}

/// `export type Name = First & (A | B) & (C | D);` for records with required aliased
/// fields. `groups` are the alternatives (object literals, printed flat).
pub fn intersection_alias(name: &str, first: &str, groups: &[Vec<String>]) -> String {
    let group_text = |group: &Vec<String>| format!("({})", group.join(" | "));
    let all: Vec<String> = std::iter::once(first.to_owned())
        .chain(groups.iter().map(group_text))
        .collect();
    let line = format!("export type {name} = {};", all.join(" & "));
    if fits(&line) {
        return line;
    }
    // `= First &` stays on the first line when it fits; otherwise everything moves
    // below `=`, indented once more.
    let head = format!("export type {name} = {first} &");
    let (mut out, indent) = if fits(&head) {
        (head, 2)
    } else {
        (format!("export type {name} =\n  {first} &"), 4)
    };
    let p = pad(indent);
    for (i, group) in groups.iter().enumerate() {
        let last = i + 1 == groups.len();
        let end = if last { ";" } else { " &" };
        let flat = format!("{p}{}{end}", group_text(group));
        if fits(&flat) {
            out.push('\n');
            out.push_str(&flat);
        } else {
            out.push_str(&format!("\n{p}(\n"));
            for member in group {
                out.push_str(&format!("{p}  | {member}\n"));
            }
            out.push_str(&format!("{p}){end}"));
        }
    }
    out
}

/// `head[a, b]tail`, broken one element per line (with a trailing comma) when too long.
fn bracketed(head: &str, elements: &[String], tail: &str) -> String {
    let line = format!("{head}[{}]{tail}", elements.join(", "));
    if fits(&line) {
        return line;
    }
    let lines: Vec<String> = elements.iter().map(|e| format!("  {e},")).collect();
    format!("{head}[\n{}\n]{tail}", lines.join("\n"))
}

/// `export declare const name: readonly [a, b];` (a tuple of literal types).
pub fn declare_tuple(name: &str, elements: &[String]) -> String {
    bracketed(
        &format!("export declare const {name}: readonly "),
        elements,
        ";",
    )
}

/// `const name = [a, b];` (JavaScript).
pub fn const_array(name: &str, elements: &[String]) -> String {
    bracketed(&format!("const {name} = "), elements, ";")
}

/// `export declare function name(param: T): R;`.
pub fn declare_function(name: &str, param: &str, result: &str) -> String {
    let line = format!("export declare function {name}({param}): {result};");
    if fits(&line) {
        return line;
    }
    format!("export declare function {name}(\n  {param},\n): {result};")
}

/// `head{ a, b }tail` (an export list), broken one name per line when too long.
pub fn name_list(head: &str, names: &[String], tail: &str) -> String {
    if names.is_empty() {
        return format!("{head}{{}}{tail}");
    }
    let line = format!("{head}{{ {} }}{tail}", names.join(", "));
    if fits(&line) {
        return line;
    }
    let lines: Vec<String> = names.iter().map(|n| format!("  {n},")).collect();
    format!("{head}{{\n{}\n}}{tail}", lines.join("\n"))
}

/// A JSDoc comment at `indent` from doc lines (already split), ending with a newline.
/// `*/` inside the text is escaped so a schema cannot end the comment early.
pub fn jsdoc(indent: usize, lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let p = pad(indent);
    let safe: Vec<String> = lines
        .iter()
        .map(|l| l.replace("*/", "*\\/").trim_end().to_owned())
        .collect();
    if let [single] = safe.as_slice() {
        let line = format!("{p}/** {single} */");
        if fits(&line) && !single.is_empty() {
            return line + "\n";
        }
    }
    let mut out = format!("{p}/**\n");
    for line in &safe {
        if line.is_empty() {
            out.push_str(&format!("{p} *\n"));
        } else {
            out.push_str(&format!("{p} * {line}\n"));
        }
    }
    out.push_str(&format!("{p} */\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(text: &str) -> Ts {
        Ts::Atom(text.into())
    }

    #[test]
    fn long_unions_break_like_prettier() {
        let ty = Ts::Union(vec![atom("\"replace\""), atom("\"update-section\"")]);
        assert_eq!(
            type_alias("ReviewMode", &ty),
            "export type ReviewMode = \"replace\" | \"update-section\";"
        );
        let long: Vec<Ts> = (0..12).map(|i| atom(&format!("\"value-{i}\""))).collect();
        let text = type_alias("Mode", &Ts::Union(long));
        assert!(
            text.starts_with("export type Mode =\n  | \"value-0\"\n"),
            "{text}"
        );
    }

    #[test]
    fn long_properties_move_to_the_next_line() {
        let ty = Ts::Union(vec![
            atom("RelatedInformationWithLongName[]"),
            atom("null"),
            atom("undefined"),
        ]);
        assert_eq!(
            property(2, "relatedInformationWithAVeryLongName?", &ty),
            "  relatedInformationWithAVeryLongName?:\n    RelatedInformationWithLongName[] | null | undefined;"
        );
        let hugged = Ts::Union(vec![
            atom("ReplyRecordWithAnUnusuallyLongName"),
            atom("null"),
        ]);
        let line = property(2, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa?", &hugged);
        assert!(!line.contains('\n'), "{line}");
    }

    #[test]
    fn jsdoc_escapes_comment_end() {
        let doc = jsdoc(0, &["a */ b".to_owned()]);
        assert_eq!(doc, "/** a *\\/ b */\n");
        assert!(!doc[3..doc.len() - 3].contains("*/"));
    }
}
