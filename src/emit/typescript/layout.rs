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
    /// `T[]` of a type that breaks (a map): `{ [key: string]: V }[]`.
    Array(Box<Ts>),
    /// An inline object type `{ k: T; … }`: its property keys (quoted, with `?` when
    /// optional) and types.
    Object(Vec<(String, Ts)>),
    /// `A & { k: T; } & (B | C)`: unions are parenthesized.
    Intersection(Vec<Ts>),
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
            Ts::Array(item) => format!("{}[]", item.flat()),
            Ts::Object(properties) => {
                let members: Vec<String> = properties
                    .iter()
                    .map(|(key, ty)| format!("{key}: {};", ty.flat()))
                    .collect();
                format!("{{ {} }}", members.join(" "))
            }
            Ts::Intersection(members) => members
                .iter()
                .map(Ts::in_intersection)
                .collect::<Vec<_>>()
                .join(" & "),
        }
    }

    /// A member of an intersection, one line: unions in parentheses.
    fn in_intersection(&self) -> String {
        match self {
            Ts::Union(_) => format!("({})", self.flat()),
            other => other.flat(),
        }
    }

    /// As an array element type: unions need parentheses; a map keeps its structure,
    /// which prettier breaks.
    pub fn array_of(&self) -> Ts {
        match self {
            Ts::Union(_) => Ts::Atom(format!("({})[]", self.flat())),
            Ts::Map(_) => Ts::Array(Box::new(self.clone())),
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
        Ts::Atom(_) | Ts::Intersection(_) => flat,
        Ts::Tuple(items) => tuple_lines(indent, items),
        Ts::Map(value) => format!(
            "{{\n{}\n{}}}",
            property(indent + 2, "[key: string]", value),
            pad(indent)
        ),
        Ts::Array(item) => format!("{}[]", layout(item, indent, column, tail + 2)),
        Ts::Object(properties) => object_lines(indent, properties),
        Ts::Union(members) => {
            let lines: Vec<String> = members
                .iter()
                .map(|m| format!("| {}", layout(m, indent + 2, indent + 2, 0)))
                .collect();
            lines.join(&format!("\n{}", pad(indent)))
        }
    }
}

/// `{` properties one per line at `indent + 2` `}` (no trailing newline).
fn object_lines(indent: usize, properties: &[(String, Ts)]) -> String {
    let lines: Vec<String> = properties
        .iter()
        .map(|(key, ty)| property(indent + 2, key, ty))
        .collect();
    format!("{{\n{}\n{}}}", lines.join("\n"), pad(indent))
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
        Ts::Array(item) => format!("{p}{key}: {}[];", layout(item, indent, indent + 80, 0)),
        Ts::Object(properties) => format!("{p}{key}: {};", object_lines(indent, properties)),
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
        Ts::Atom(_) | Ts::Intersection(_) => line,
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
    if let Ts::Intersection(members) = ty
        && let Some(at) = members.iter().position(|m| matches!(m, Ts::Object(_)))
    {
        return intersection_lines(name, members, at);
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

/// `export type Name = A & { k: T; } & (B | C);` too long for a line: the object
/// member `at` broken one property per line, the members before it on the line of `=`
/// when that fits, else everything below it, indented.
fn intersection_lines(name: &str, members: &[Ts], at: usize) -> String {
    let Ts::Object(properties) = &members[at] else {
        return format!(
            "export type {name} = {};",
            Ts::Intersection(members.to_vec()).flat()
        );
    };
    let before: Vec<String> = members[..at].iter().map(Ts::in_intersection).collect();
    let after: Vec<String> = members[at + 1..].iter().map(Ts::in_intersection).collect();
    let open = if before.is_empty() {
        "{".to_owned()
    } else {
        format!("{} & {{", before.join(" & "))
    };
    let close = if after.is_empty() {
        "};".to_owned()
    } else {
        format!("}} & {};", after.join(" & "))
    };
    let head = format!("export type {name} = {open}");
    let indent = if fits(&head) { 0 } else { 2 };
    let p = pad(indent);
    let lines: Vec<String> = properties
        .iter()
        .map(|(key, ty)| property(indent + 2, key, ty))
        .collect();
    let first = if indent == 0 {
        head
    } else {
        format!("export type {name} =\n{p}{open}")
    };
    format!("{first}\n{}\n{p}{close}", lines.join("\n"))
}

/// `export interface Name extends A, B {`, the `extends` clause on a line of its own
/// when the head is too long and extends more than one interface.
pub fn interface_head(name: &str, extends: &[String]) -> String {
    if extends.is_empty() {
        return format!("export interface {name} {{");
    }
    let line = format!("export interface {name} extends {} {{", extends.join(", "));
    // prettier keeps a single heritage on the line, however long.
    if fits(&line) || extends.len() == 1 {
        return line;
    }
    format!(
        "export interface {name}\n  extends {} {{",
        extends.join(", ")
    )
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

/// `head[a, b]tail`, broken one element per line (with a trailing comma) when too long;
/// an array of numbers is filled instead, as many per line as fit (prettier's layout of
/// a number array).
fn bracketed(head: &str, elements: &[String], tail: &str) -> String {
    let line = format!("{head}[{}]{tail}", elements.join(", "));
    if fits(&line) {
        return line;
    }
    if head.starts_with("const ") && elements.iter().all(|e| is_number_literal(e)) {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        for element in elements {
            let next = if current.is_empty() {
                format!("  {element}")
            } else {
                format!("{current}, {element}")
            };
            if !current.is_empty() && width(&next) + 1 > WIDTH {
                lines.push(format!("{current},"));
                current = format!("  {element}");
            } else {
                current = next;
            }
        }
        lines.push(format!("{current},"));
        return format!("{head}[\n{}\n]{tail}", lines.join("\n"));
    }
    let lines: Vec<String> = elements.iter().map(|e| format!("  {e},")).collect();
    format!("{head}[\n{}\n]{tail}", lines.join("\n"))
}

/// Whether `text` is a JavaScript number literal as symgen writes one (`-1`, `2.5`,
/// `1e21`).
fn is_number_literal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.starts_with(|c: char| c.is_ascii_digit())
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
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
