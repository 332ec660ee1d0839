//! Python source text the way `ruff format` prints it: expressions on one line when they
//! fit in 88 columns, otherwise split at their brackets one element per line with a
//! trailing comma (which ruff keeps as a "magic trailing comma"); string literals in
//! double quotes unless single quotes need fewer escapes, ASCII only; docstrings.
//!
//! Every line the generated code holds is ASCII: identifiers are ASCII (`names.rs`) and
//! string literals escape everything else, so a line's width is its length.

use std::fmt::Write;

/// The line width `ruff format` uses by default.
pub const WIDTH: usize = 88;

/// One indentation level.
pub const INDENT: usize = 4;

/// A Python expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Py {
    /// A name or literal, as written.
    Atom(String),
    /// `head[items]`.
    Subscript(String, Vec<Py>),
    /// `head(items)`.
    Call(String, Vec<Py>),
    /// `name=value` (a keyword argument).
    Keyword(String, Box<Py>),
    /// `(items)`: a tuple (one element gets its comma).
    Tuple(Vec<Py>),
    /// `{key: value}`.
    Dict(Vec<(Py, Py)>),
    /// `[items]`.
    List(Vec<Py>),
    /// `a | b | c`: a union type.
    Union(Vec<Py>),
    /// `lambda: body`.
    Lambda(Box<Py>),
}

impl Py {
    /// The value with `f` applied to each direct child (atoms have none).
    pub fn map_children(self, mut f: impl FnMut(Py) -> Py) -> Py {
        let mut all = |items: Vec<Py>| items.into_iter().map(&mut f).collect();
        match self {
            Py::Subscript(head, items) => Py::Subscript(head, all(items)),
            Py::Call(head, items) => Py::Call(head, all(items)),
            Py::Tuple(items) => Py::Tuple(all(items)),
            Py::List(items) => Py::List(all(items)),
            Py::Union(items) => Py::Union(all(items)),
            Py::Keyword(name, value) => Py::Keyword(name, Box::new(f(*value))),
            Py::Lambda(body) => Py::Lambda(Box::new(f(*body))),
            Py::Dict(entries) => Py::Dict(entries.into_iter().map(|(k, v)| (f(k), f(v))).collect()),
            atom @ Py::Atom(_) => atom,
        }
    }

    /// A name or other atom.
    pub fn atom(text: impl Into<String>) -> Py {
        Py::Atom(text.into())
    }

    /// A string literal.
    pub fn string(text: &str) -> Py {
        Py::Atom(string(text))
    }

    /// `head[items]`.
    pub fn sub(head: impl Into<String>, items: Vec<Py>) -> Py {
        Py::Subscript(head.into(), items)
    }

    /// `head(items)`.
    pub fn call(head: impl Into<String>, items: Vec<Py>) -> Py {
        Py::Call(head.into(), items)
    }

    /// `name=value`.
    pub fn kw(name: impl Into<String>, value: Py) -> Py {
        Py::Keyword(name.into(), Box::new(value))
    }

    /// `a | b | ...` as Python reads it: nested unions flattened, repeated members
    /// kept once, and every `Literal[...]` member merged into the first (ruff's PYI016
    /// and PYI030; the type is the same).
    pub fn union(items: Vec<Py>) -> Py {
        let mut flat: Vec<Py> = Vec::with_capacity(items.len());
        let mut literal: Option<usize> = None;
        let mut seen = std::collections::HashSet::new();
        let mut add = |flat: &mut Vec<Py>, item: Py| match item {
            Py::Subscript(head, values) if head == "Literal" => match literal {
                Some(at) => {
                    if let Py::Subscript(_, merged) = &mut flat[at] {
                        for value in values {
                            if seen.insert(format!("Literal[{}]", value.flat())) {
                                merged.push(value);
                            }
                        }
                    }
                }
                None => {
                    for value in &values {
                        seen.insert(format!("Literal[{}]", value.flat()));
                    }
                    literal = Some(flat.len());
                    flat.push(Py::Subscript(head, values));
                }
            },
            other => {
                if seen.insert(other.flat()) {
                    flat.push(other);
                }
            }
        };
        for item in items {
            match item {
                Py::Union(inner) => inner.into_iter().for_each(|i| add(&mut flat, i)),
                other => add(&mut flat, other),
            }
        }
        if flat.len() == 1 {
            return flat.remove(0);
        }
        Py::Union(flat)
    }

    /// `self | None`.
    pub fn or_none(self) -> Py {
        Py::union(vec![self, Py::atom("None")])
    }

    /// The expression on one line.
    pub fn flat(&self) -> String {
        match self {
            Py::Atom(text) => text.clone(),
            Py::Subscript(head, items) => format!("{head}[{}]", join(items)),
            Py::Call(head, items) => format!("{head}({})", join(items)),
            Py::Keyword(name, value) => format!("{name}={}", value.flat()),
            Py::Tuple(items) if items.len() == 1 => format!("({},)", items[0].flat()),
            Py::Tuple(items) => format!("({})", join(items)),
            Py::List(items) => format!("[{}]", join(items)),
            Py::Dict(entries) => {
                let inner: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.flat(), v.flat()))
                    .collect();
                format!("{{{}}}", inner.join(", "))
            }
            Py::Union(items) => items.iter().map(Py::flat).collect::<Vec<_>>().join(" | "),
            Py::Lambda(body) => format!("lambda: {}", body.flat()),
        }
    }

    /// The expression starting at column `column` (after text already on the line) and
    /// followed by `tail` on its last line, split when it does not fit. Continuation
    /// lines are indented from `indent`.
    pub fn layout(&self, indent: usize, column: usize, tail: usize) -> String {
        let flat = self.flat();
        if column + flat.len() + tail <= WIDTH {
            return flat;
        }
        let (open, close, head, items): (&str, &str, String, Vec<String>) = match self {
            Py::Subscript(head, items) => {
                // One item takes no trailing comma (`list[X,]` would subscript with a
                // tuple); ruff adds none either.
                let tail = usize::from(items.len() > 1);
                ("[", "]", head.clone(), Self::items(items, indent, tail))
            }
            Py::Call(head, items) => ("(", ")", head.clone(), Self::items(items, indent, 1)),
            Py::Tuple(items) => ("(", ")", String::new(), Self::items(items, indent, 1)),
            Py::List(items) => ("[", "]", String::new(), Self::items(items, indent, 1)),
            Py::Dict(entries) => {
                let inner = indent + INDENT;
                let items = entries
                    .iter()
                    .map(|(k, v)| {
                        let key = k.flat();
                        format!("{key}: {}", v.layout(inner, inner + key.len() + 2, 1))
                    })
                    .collect();
                ("{", "}", String::new(), items)
            }
            Py::Keyword(name, value) => {
                return format!(
                    "{name}={}",
                    value.layout(indent, column + name.len() + 1, tail)
                );
            }
            Py::Union(items) => {
                // One operand per line, each continuation line starting with `| `
                // at the union's own indentation (ruff's layout of a split binary
                // expression inside brackets).
                let pad = " ".repeat(indent);
                let mut out = String::new();
                for (i, item) in items.iter().enumerate() {
                    let last = i + 1 == items.len();
                    let tail = if last { tail } else { 0 };
                    if i == 0 {
                        out.push_str(&item.layout(indent, column, tail));
                    } else {
                        let _ = write!(out, "\n{pad}| {}", item.layout(indent, indent + 2, tail));
                    }
                }
                return out;
            }
            Py::Lambda(body) => {
                let inner = indent + INDENT;
                let body_flat = body.flat();
                if !body.splits() {
                    // The body in parentheses of its own (however long it still is).
                    return format!(
                        "lambda: (\n{}{body_flat}\n{})",
                        " ".repeat(inner),
                        " ".repeat(indent)
                    );
                }
                return format!("lambda: {}", body.layout(indent, column + 8, tail));
            }
            Py::Atom(_) => return flat,
        };
        let pad = " ".repeat(indent + INDENT);
        let mut out = format!("{head}{open}\n");
        let comma = if matches!(self, Py::Subscript(_, all) if all.len() == 1) {
            ""
        } else {
            ","
        };
        for item in items {
            let _ = writeln!(out, "{pad}{item}{comma}");
        }
        let _ = write!(out, "{}{close}", " ".repeat(indent));
        out
    }

    fn items(items: &[Py], indent: usize, tail: usize) -> Vec<String> {
        let inner = indent + INDENT;
        items
            .iter()
            .map(|item| item.layout(inner, inner, tail))
            .collect()
    }
}

fn join(items: &[Py]) -> String {
    items.iter().map(Py::flat).collect::<Vec<_>>().join(", ")
}

/// `{indent}{target}: {annotation} = {value}` (annotation and value optional), split
/// the way ruff splits an assignment that does not fit: when the target and annotation
/// fit, the value at its own brackets (or in parentheses of its own); otherwise the
/// annotation at its brackets (or in parentheses), the value after it.
pub fn assignment(
    indent: usize,
    target: &str,
    annotation: Option<&Py>,
    value: Option<&Py>,
) -> String {
    let pad = " ".repeat(indent);
    let annotation_flat = annotation
        .map(|a| format!(": {}", a.flat()))
        .unwrap_or_default();
    let value_flat = value
        .map(|v| format!(" = {}", v.flat()))
        .unwrap_or_default();
    let line = format!("{pad}{target}{annotation_flat}{value_flat}");
    if line.len() <= WIDTH {
        return line;
    }
    let head = format!("{pad}{target}{annotation_flat}");
    let head_fits = match value {
        Some(_) => head.len() + 4 <= WIDTH,
        None => head.len() <= WIDTH,
    };
    if head_fits {
        let Some(value) = value else {
            return line;
        };
        return format!("{head} = {}", value_after(value, indent, head.len() + 3));
    }
    // The annotation does not fit: split it.
    let Some(annotation) = annotation else {
        return line;
    };
    if let (Py::Atom(_), Some(value)) = (annotation, value) {
        // Nothing to split on the left: the value splits at its brackets.
        return format!("{head} = {}", value.layout(indent, head.len() + 3, 0));
    }
    if let Py::Atom(text) = annotation {
        // A name too long for the line goes in parentheses of its own when it fits
        // there; else it stays on the line (parentheses would not help).
        let inner = indent + INDENT;
        if value.is_none() && inner + text.len() <= WIDTH {
            return format!("{pad}{target}: (\n{}{text}\n{pad})", " ".repeat(inner));
        }
        return line;
    }
    let annotation_text = if annotation.splits() {
        annotation.layout(indent, pad.len() + target.len() + 2, WIDTH)
    } else {
        let inner = indent + INDENT;
        format!(
            "(\n{}{}\n{pad})",
            " ".repeat(inner),
            annotation.layout(inner, inner, 0)
        )
    };
    let Some(value) = value else {
        return format!("{pad}{target}: {annotation_text}");
    };
    // The value continues the annotation's last line (`] = ...` or `) = ...`).
    let last = annotation_text
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .len();
    format!(
        "{pad}{target}: {annotation_text} = {}",
        value_after(value, indent, last + 3)
    )
}

/// A value starting at `column`: flat when it fits, split at its own brackets when
/// their opening fits, else in parentheses of its own on the next line.
fn value_after(value: &Py, indent: usize, column: usize) -> String {
    let flat = value.flat();
    if column + flat.len() <= WIDTH {
        return flat;
    }
    let inner = indent + INDENT;
    let fits_inside = inner + flat.len() <= WIDTH;
    let parenthesized =
        |text: String| format!("(\n{}{text}\n{})", " ".repeat(inner), " ".repeat(indent));
    if value.splits() {
        // Its own brackets when their opening fits on the line; else parentheses of
        // its own (when their opening fits), the value laid out inside.
        if column + value.opening() <= WIDTH || column + 1 > WIDTH {
            return value.layout(indent, column, 0);
        }
        // Parentheses only when every line then fits (ruff's choice); otherwise the
        // long first line stays and the value splits at its brackets.
        let inside = parenthesized(value.layout(inner, inner, 0));
        if inside.lines().all(|l| l.len() <= WIDTH) {
            return inside;
        }
        return value.layout(indent, column, 0);
    }
    match value {
        // A union splits at its `|` inside parentheses.
        Py::Union(_) => parenthesized(value.layout(inner, inner, 0)),
        // Anything else moves into parentheses only if it then fits.
        _ if fits_inside => parenthesized(flat),
        _ => flat,
    }
}

impl Py {
    /// The length of the text up to and including its opening bracket.
    fn opening(&self) -> usize {
        match self {
            Py::Subscript(head, _) | Py::Call(head, _) => head.len() + 1,
            _ => 1,
        }
    }

    /// Whether the expression ends in brackets it can split at.
    fn splits(&self) -> bool {
        matches!(
            self,
            Py::Subscript(..) | Py::Call(..) | Py::Tuple(_) | Py::Dict(_) | Py::List(_)
        )
    }
}

/// `def name(params) -> returns:` at `indent`; when too long, one parameter per line
/// with a trailing comma (and the return type in parentheses when its own line is too
/// long).
pub fn def_head(indent: usize, name: &str, params: &[&str], returns: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}def {name}({}) -> {returns}:", params.join(", "));
    if line.len() <= WIDTH {
        return line;
    }
    let inner = " ".repeat(indent + INDENT);
    let mut out = format!("{pad}def {name}(\n");
    for param in params {
        let _ = writeln!(out, "{inner}{param},");
    }
    // A return type too long for its line goes into parentheses of its own when it fits
    // there (ruff's layout).
    if pad.len() + ") -> ".len() + returns.len() + 1 > WIDTH && inner.len() + returns.len() <= WIDTH
    {
        let _ = write!(out, "{pad}) -> (\n{inner}{returns}\n{pad}):");
    } else {
        let _ = write!(out, "{pad}) -> {returns}:");
    }
    out
}

/// `class name(bases):`; when too long, one base per line with a trailing comma.
pub fn class_head(name: &str, bases: &[String]) -> String {
    let line = format!("class {name}({}):", bases.join(", "));
    if line.len() <= WIDTH {
        return line;
    }
    let mut out = format!("class {name}(\n");
    for base in bases {
        let _ = writeln!(out, "    {base},");
    }
    out.push_str("):");
    out
}

/// `return value` at `indent`, the value split at its brackets when long. When the line
/// that opens those brackets is itself too long, the value goes into parentheses of its
/// own (split inside them as it needs), as ruff does, unless its first line is too long
/// there as well.
pub fn return_statement(indent: usize, value: &Py) -> String {
    let pad = " ".repeat(indent);
    let column = indent + 7;
    let own = value.layout(indent, column, 0);
    let first_line_fits =
        |text: &str, column: usize| column + text.lines().next().map_or(0, str::len) <= WIDTH;
    if own.contains('\n') && !first_line_fits(&own, column) {
        let inner = indent + INDENT;
        let wrapped = value.layout(inner, inner, 0);
        if first_line_fits(&wrapped, inner) {
            let inner_pad = " ".repeat(inner);
            return format!("{pad}return (\n{inner_pad}{wrapped}\n{pad})");
        }
    }
    format!("{pad}return {own}")
}

/// A Python string literal of `text`: ASCII only (other characters as `\xXX`, `\uXXXX`
/// or `\UXXXXXXXX`), in double quotes unless the text holds more double than single
/// quotes (ruff's preference).
pub fn string(text: &str) -> String {
    let doubles = text.matches('"').count();
    let singles = text.matches('\'').count();
    let quote = if doubles > singles { '\'' } else { '"' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        escape_char(&mut out, c, Some(quote));
    }
    out.push(quote);
    out
}

fn escape_char(out: &mut String, c: char, quote: Option<char>) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if Some(c) == quote => {
            out.push('\\');
            out.push(c);
        }
        ' '..='~' => out.push(c),
        c if u32::from(c) <= 0xff => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c if u32::from(c) <= 0xffff => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\U{:08x}", u32::from(c));
        }
    }
}

/// A docstring at `indent` from doc lines, as ruff formats docstrings: `"""One
/// line."""`, or the first line after the opening quotes, the others at the docstring's
/// indentation (their common indentation removed, the rest kept), closing quotes on
/// their own line, trailing whitespace removed. Backslashes, quotes that could end the
/// string and control characters are escaped; other text stays readable.
pub fn docstring(indent: usize, lines: &[String]) -> Option<String> {
    let lines: Vec<String> = lines.iter().map(|l| doc_text(l.trim_end())).collect();
    let first = lines.iter().position(|l| !l.is_empty())?;
    let last = lines.iter().rposition(|l| !l.is_empty())?;
    let lines = &lines[first..=last];
    let pad = " ".repeat(indent);
    let head = lines[0].trim_start();
    if lines.len() == 1 {
        return Some(format!("{pad}\"\"\"{head}\"\"\""));
    }
    let common = lines[1..]
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    let mut out = format!("{pad}\"\"\"{head}\n");
    for line in &lines[1..] {
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "{pad}{}", &line[common..]);
        }
    }
    let _ = write!(out, "{pad}\"\"\"");
    Some(out)
}

/// Text for one line of a docstring, escaped as [`docstring`] escapes its lines.
pub fn docstring_text(line: &str) -> String {
    doc_text(line)
}

/// One docstring line: backslashes doubled, `"` escaped where it could close the
/// string (next to another `"` or at either end), control characters, invisible ones
/// and whitespace other than the space escaped (so ruff cannot strip or re-indent
/// them, and a reader sees what the text says).
fn doc_text(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => {
                let next_quote = chars.get(i + 1) == Some(&'"');
                let prev_quote = i > 0 && chars[i - 1] == '"';
                if i == 0 || i + 1 == chars.len() || next_quote || prev_quote {
                    out.push_str("\\\"");
                } else {
                    out.push('"');
                }
            }
            c if c.is_control()
                || (c.is_whitespace() && c != ' ')
                || crate::emit::text::is_invisible(c) =>
            {
                escape_char(&mut out, c, None);
            }
            c => out.push(c),
        }
    }
    out
}

/// A JSON value as a Python literal expression (`null` → `None`, objects → dicts).
pub fn literal(value: &serde_json::Value) -> Py {
    use serde_json::Value;
    match value {
        Value::Null => Py::atom("None"),
        Value::Bool(true) => Py::atom("True"),
        Value::Bool(false) => Py::atom("False"),
        Value::Number(n) => Py::atom(number(n)),
        Value::String(s) => Py::string(s),
        Value::Array(items) => Py::List(items.iter().map(literal).collect()),
        Value::Object(map) => Py::Dict(
            map.iter()
                .map(|(k, v)| (Py::string(k), literal(v)))
                .collect(),
        ),
    }
}

/// A JSON number as Python source: integers as they are; other numbers in a form
/// Python reads as the same float (`1e5` → `1e5`, `1.0` → `1.0`).
pub fn number(n: &serde_json::Number) -> String {
    let text = n.to_string();
    if text.contains(['.', 'e', 'E']) || n.is_i64() || n.is_u64() {
        text
    } else {
        format!("{text}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_ascii_and_prefer_double_quotes() {
        assert_eq!(string("a"), "\"a\"");
        assert_eq!(string("say \"hi\""), "'say \"hi\"'");
        assert_eq!(string("it's"), "\"it's\"");
        assert_eq!(
            string("\\\n\u{2028}Ω\u{1F600}\u{0}"),
            "\"\\\\\\n\\u2028\\u03a9\\U0001f600\\x00\""
        );
    }

    #[test]
    fn unions_read_as_python_reads_them() {
        let literal = |v: &str| Py::sub("Literal", vec![Py::string(v)]);
        let union = Py::union(vec![
            literal("a"),
            Py::atom("bool"),
            Py::union(vec![literal("b"), Py::atom("None"), literal("a")]),
            Py::atom("bool"),
        ]);
        assert_eq!(union.flat(), "Literal[\"a\", \"b\"] | bool | None");
        assert_eq!(Py::atom("int").or_none().or_none().flat(), "int | None");
        assert_eq!(
            Py::union(vec![literal("a"), literal("b")]).flat(),
            "Literal[\"a\", \"b\"]"
        );
    }

    #[test]
    fn long_expressions_split_one_item_per_line() {
        let items = (0..12).map(|i| Py::string(&format!("value{i}"))).collect();
        let ty = Py::sub("Literal", items);
        let text = assignment(0, "Level", Some(&Py::atom("TypeAlias")), Some(&ty));
        assert!(text.starts_with("Level: TypeAlias = Literal[\n    \"value0\",\n"));
        assert!(text.ends_with("    \"value11\",\n]"));
        assert!(text.lines().all(|l| l.len() <= WIDTH));
    }

    #[test]
    fn a_subscript_of_one_item_splits_without_a_trailing_comma() {
        let ty = Py::sub("list", vec![Py::atom("A".repeat(90))]);
        assert_eq!(
            ty.layout(0, 0, 0),
            format!("list[\n    {}\n]", "A".repeat(90))
        );
        let ty = Py::sub("dict", vec![Py::atom("str"), Py::atom("A".repeat(90))]);
        assert!(
            ty.layout(0, 0, 0)
                .ends_with(&format!("    {},\n]", "A".repeat(90)))
        );
    }

    #[test]
    fn a_return_type_too_long_for_its_line_is_parenthesized_as_ruff_does() {
        // ruff 0.17: `) -> NAME:` past 88 columns puts NAME in parentheses while
        // `    NAME` fits (83 and 84 letters), and leaves it alone beyond (85).
        let name = format!("decode_{}", "x".repeat(90));
        let head = |n: usize| def_head(0, &name, &["data: str"], &"A".repeat(n));
        assert!(head(82).ends_with(&format!(") -> {}:", "A".repeat(82))));
        assert!(head(84).ends_with(&format!(") -> (\n    {}\n):", "A".repeat(84))));
        assert!(head(85).ends_with(&format!(") -> {}:", "A".repeat(85))));
    }

    #[test]
    fn a_return_whose_opening_line_is_too_long_is_parenthesized_as_ruff_does() {
        // The three layouts ruff gives `return NAME.decode(data)` as NAME grows
        // (`ruff format` 0.17 on the text, checked by hand).
        let call =
            |n: usize| Py::call(format!("_{}.decode", "A".repeat(n)), vec![Py::atom("data")]);
        assert!(!return_statement(4, &call(60)).contains('\n'));
        let name = "A".repeat(66);
        assert_eq!(
            return_statement(4, &call(66)),
            format!("    return _{name}.decode(\n        data,\n    )")
        );
        let name = "A".repeat(70);
        assert_eq!(
            return_statement(4, &call(70)),
            format!("    return (\n        _{name}.decode(\n            data,\n        )\n    )")
        );
        let name = "A".repeat(75);
        assert_eq!(
            return_statement(4, &call(75)),
            format!("    return _{name}.decode(\n        data,\n    )")
        );
    }

    #[test]
    fn docstrings_escape_what_could_end_them() {
        let lines = [
            "Say \"\"\"hi\"".into(),
            String::new(),
            "  a \\ b".into(),
            "    c".into(),
        ];
        let doc = docstring(4, &lines).unwrap();
        assert_eq!(
            doc,
            "    \"\"\"Say \\\"\\\"\\\"hi\\\"\n\n    a \\\\ b\n      c\n    \"\"\""
        );
        assert_eq!(docstring(0, &["One.".into()]).unwrap(), "\"\"\"One.\"\"\"");
        assert_eq!(docstring(0, &[String::new()]), None);
    }
}
