//! Source layout that `swift-format lint --strict` accepts: doc comments wrapped to the
//! line limit, string literals, and calls broken the way swift-format breaks them.

/// swift-format's default line length.
pub const LINE_LIMIT: usize = 100;

/// Spaces per indentation level (swift-format's default).
pub const INDENT: usize = 2;

/// The documentation text of a declaration (see [`crate::emit::doc::DocBlock`]): title
/// and description, marked `Deprecated.` first when the schema says so.
pub fn doc_text(docs: &crate::model::Docs) -> Option<String> {
    let text = crate::emit::doc::DocBlock::new(docs).joined();
    if docs.deprecated && !text.as_deref().unwrap_or("").starts_with("Deprecated") {
        Some(
            format!("Deprecated. {}", text.unwrap_or_default())
                .trim()
                .to_owned(),
        )
    } else {
        text
    }
}

/// `///` doc-comment lines for `text` at `indent` spaces, each line ending in `\n`;
/// empty when there is no text. Lines longer than the limit are wrapped at spaces;
/// blank lines stay (as `///`), trailing spaces go.
pub fn doc_comment(text: Option<&str>, indent: usize) -> String {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return String::new();
    };
    let pad = " ".repeat(indent);
    let width = LINE_LIMIT.saturating_sub(indent + 4).max(20);
    let mut out = String::new();
    for line in crate::emit::doc::lines(text) {
        let line = line.trim_end();
        if line.is_empty() {
            out.push_str(&format!("{pad}///\n"));
            continue;
        }
        for piece in wrap_words(line, width) {
            out.push_str(&format!("{pad}/// {piece}\n"));
        }
    }
    out
}

/// Splits `line` at spaces into pieces of at most `width` characters (a single word
/// longer than that stays whole). Leading spaces of the line are kept on the first piece.
fn wrap_words(line: &str, width: usize) -> Vec<String> {
    let indent_len = line.len() - line.trim_start().len();
    let mut pieces = Vec::new();
    let mut current = line[..indent_len].to_owned();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        let fits = current.trim().is_empty()
            || current.chars().count() + 1 + word.chars().count() <= width;
        if !fits {
            pieces.push(std::mem::take(&mut current));
        }
        if !current.is_empty() && !current.trim().is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.trim().is_empty() {
        pieces.push(current);
    }
    pieces
}

/// A Swift string literal for `value`.
pub fn string_literal(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control()
                || crate::emit::text::is_line_terminator(c)
                || crate::emit::text::is_invisible(c) =>
            {
                out.push_str(&format!("\\u{{{:X}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The directive that exempts the next declaration or statement from swift-format;
/// used only when a name is too long to lay out within the line limit.
pub const IGNORE: &str = "// swift-format-ignore";

/// Whether every line of `text` is within swift-format's line length.
pub fn fits(text: &str) -> bool {
    text.lines().all(|line| line.chars().count() <= LINE_LIMIT)
}

/// `text` (lines at `indent`, each ending in a newline) preceded by [`IGNORE`] when a
/// line is still longer than the limit.
pub fn guarded(text: String, indent: usize) -> String {
    if fits(&text) {
        text
    } else {
        format!("{}{IGNORE}\n{text}", " ".repeat(indent))
    }
}

/// A call statement `head` + `args` + `tail` (e.g. `self.x = try f(` + `[a, b]` +
/// `)`) at `indent` spaces, laid out in the first of these shapes that fits, as
/// swift-format breaks calls:
///
/// 1. one line;
/// 2. the arguments together on the next line (not when `tail` continues with an
///    operator such as `?? false`);
/// 3. for an assignment, a break after `=` and the call on the next line;
/// 4. for an assignment, a break after `=` and the arguments one line further;
/// 5. one argument per line and `tail` on a line of its own.
///
/// When none fits, shape 2 preceded by [`IGNORE`]. Every line ends in `\n`.
pub fn call(indent: usize, head: &str, args: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let in1 = " ".repeat(indent + INDENT);
    let in2 = " ".repeat(indent + 2 * INDENT);
    let joined = args.join(", ");
    let one_line = format!("{pad}{head}{joined}{tail}\n");
    if fits(&one_line) || args.is_empty() {
        return guarded(one_line, indent);
    }
    let operator_tail = tail
        .trim_start_matches(')')
        .trim_start()
        .starts_with(|c: char| !c.is_alphanumeric() && c != '{');
    let shape2 = format!("{pad}{head}\n{in1}{joined}{tail}\n");
    if fits(&shape2) && !operator_tail {
        return shape2;
    }
    if let Some((lhs, call)) = head.split_once(" = ") {
        let shape3 = format!("{pad}{lhs} =\n{in1}{call}{joined}{tail}\n");
        if fits(&shape3) {
            return shape3;
        }
        let shape4 = format!("{pad}{lhs} =\n{in1}{call}\n{in2}{joined}{tail}\n");
        if fits(&shape4) {
            return shape4;
        }
    }
    let mut shape5 = format!("{pad}{head}\n");
    for (i, arg) in args.iter().enumerate() {
        let comma = if i + 1 < args.len() { "," } else { "" };
        shape5.push_str(&format!("{in1}{arg}{comma}\n"));
    }
    shape5.push_str(&format!("{pad}{}\n", tail.trim_start()));
    if fits(&shape5) && !operator_tail {
        return shape5;
    }
    guarded(shape2, indent)
}

/// A call whose only argument is an array literal: `head` + `[` items `]` + `tail`, as
/// swift-format prints it: on one line; else the items on the next line with a
/// trailing comma (none after a lone item); else one item per line. Every line ends
/// in `\n`.
pub fn array_call(indent: usize, head: &str, items: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let inner = " ".repeat(indent + INDENT);
    let joined = items.join(", ");
    let one_line = format!("{pad}{head}[{joined}]{tail}\n");
    if fits(&one_line) || items.is_empty() {
        return guarded(one_line, indent);
    }
    // swift-format drops the trailing comma of a lone item.
    let comma = if items.len() == 1 { "" } else { "," };
    let shape2 = format!("{pad}{head}[\n{inner}{joined}{comma}\n{pad}]{tail}\n");
    if fits(&shape2) || items.len() == 1 {
        return guarded(shape2, indent);
    }
    let mut shape3 = format!("{pad}{head}[\n");
    for item in items {
        shape3.push_str(&format!("{inner}{item},\n"));
    }
    shape3.push_str(&format!("{pad}]{tail}\n"));
    guarded(shape3, indent)
}

/// A type declaration header `head` + conformances + ` {` (e.g. `public struct X: `),
/// as swift-format breaks it: on one line; else the conformances filled onto lines
/// (continuations indented one level) and `{` on a line of its own.
pub fn type_header(indent: usize, head: &str, conformances: &[&str]) -> String {
    let pad = " ".repeat(indent);
    let one_line = format!("{pad}{head}{} {{\n", conformances.join(", "));
    if fits(&one_line) {
        return one_line;
    }
    let mut lines: Vec<String> = vec![format!("{pad}{head}")];
    for (i, conformance) in conformances.iter().enumerate() {
        let piece = if i + 1 < conformances.len() {
            format!("{conformance},")
        } else {
            (*conformance).to_owned()
        };
        let current = lines.last_mut().expect("one line at least");
        let starts = current.ends_with(": ") || current.trim().is_empty();
        let candidate = if starts {
            format!("{current}{piece}")
        } else {
            format!("{current} {piece}")
        };
        if candidate.chars().count() <= LINE_LIMIT || starts {
            *current = candidate;
        } else {
            lines.push(format!("{pad}{}{piece}", " ".repeat(INDENT)));
        }
    }
    guarded(format!("{}\n{pad}{{\n", lines.join("\n")), indent)
}

/// A declaration `name: type` (e.g. `public let x: T`, `case x(T)` with `open` `(`)
/// broken after the colon (or the parenthesis) when too long.
pub fn typed_declaration(indent: usize, head: &str, ty: &str, tail: &str) -> String {
    let pad = " ".repeat(indent);
    let one_line = format!("{pad}{head}{ty}{tail}\n");
    if fits(&one_line) {
        return one_line;
    }
    let broken = format!(
        "{pad}{}\n{}{ty}{tail}\n",
        head.trim_end(),
        " ".repeat(indent + INDENT)
    );
    guarded(broken, indent)
}

/// A declaration `head` + `params` + `tail` (e.g. `public init(` + params + `) {`) at
/// `indent` spaces, laid out like swift-format: on one line when it fits; else the
/// parameters on the next line (together, or one per line) and the closing `tail` on a
/// line of its own. Every line ends in `\n`.
pub fn declaration(indent: usize, head: &str, params: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let inner = " ".repeat(indent + INDENT);
    let joined = params.join(", ");
    let one_line = format!("{pad}{head}{joined}{tail}");
    if one_line.chars().count() <= LINE_LIMIT || params.is_empty() {
        return format!("{one_line}\n");
    }
    let second = format!("{inner}{joined}");
    if second.chars().count() <= LINE_LIMIT {
        return format!("{pad}{head}\n{second}\n{pad}{tail}\n");
    }
    let mut out = format!("{pad}{head}\n");
    for (i, param) in params.iter().enumerate() {
        let comma = if i + 1 < params.len() { "," } else { "" };
        out.push_str(&format!("{inner}{param}{comma}\n"));
    }
    out.push_str(&format!("{pad}{tail}\n"));
    guarded(out, indent)
}

/// A statement `lhs = rhs` at `indent` spaces: on one line when it fits, else broken
/// after `=` with `rhs` indented one level. Every line ends in `\n`.
pub fn assignment(indent: usize, lhs: &str, rhs: &str) -> String {
    let pad = " ".repeat(indent);
    let one_line = format!("{pad}{lhs} = {rhs}");
    if one_line.chars().count() <= LINE_LIMIT {
        return format!("{one_line}\n");
    }
    guarded(
        format!("{pad}{lhs} =\n{}{rhs}\n", " ".repeat(indent + INDENT)),
        indent,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_comments_wrap_at_the_limit() {
        assert_eq!(doc_comment(None, 2), "");
        assert_eq!(doc_comment(Some("  "), 2), "");
        assert_eq!(
            doc_comment(Some("One.\n\nTwo. "), 2),
            "  /// One.\n  ///\n  /// Two.\n"
        );
        let long = "word ".repeat(30);
        let doc = doc_comment(Some(&long), 4);
        assert!(
            doc.lines()
                .all(|l| l.len() <= LINE_LIMIT && l.starts_with("    /// word"))
        );
        assert_eq!(doc.lines().count(), 2);
    }

    #[test]
    fn string_literals_escape() {
        assert_eq!(string_literal("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u{1}\"");
        assert_eq!(string_literal("\\(x)"), "\"\\\\(x)\"");
    }

    #[test]
    fn a_lone_array_item_has_no_trailing_comma() {
        let long = "x".repeat(90);
        assert_eq!(
            array_call(4, "f(known: ", std::slice::from_ref(&long), ")"),
            format!("    f(known: [\n      {long}\n    ])\n")
        );
        let two = array_call(4, "f(known: ", &[long.clone(), "y".into()], ")");
        assert!(two.ends_with(", y,\n    ])\n"), "{two}");
    }

    #[test]
    fn calls_break_like_swift_format() {
        assert_eq!(
            call(4, "f(", &["a".into(), "b".into()], ")"),
            "    f(a, b)\n"
        );
        let args: Vec<String> = vec!["x".repeat(50), "y".repeat(40)];
        assert_eq!(
            call(4, "let value = try f(", &args, ")"),
            format!("    let value = try f(\n      {}, {})\n", args[0], args[1])
        );
        let args: Vec<String> = vec!["x".repeat(60), "y".repeat(60)];
        assert_eq!(
            call(4, "f(", &args, ")"),
            format!("    f(\n      {},\n      {}\n    )\n", args[0], args[1])
        );
    }

    #[test]
    fn assignments_break_after_the_equals_sign() {
        assert_eq!(assignment(2, "a", "b"), "  a = b\n");
        let rhs = "r".repeat(96);
        assert_eq!(assignment(2, "a", &rhs), format!("  a =\n    {rhs}\n"));
    }

    #[test]
    fn calls_with_an_operator_tail_break_after_the_equals_sign() {
        let args: Vec<String> = vec!["Bool.self".into(), format!("forKey: .{}", "k".repeat(30))];
        assert_eq!(
            call(
                4,
                "self.x = try container.decodeIfPresent(",
                &args,
                ") ?? false"
            ),
            format!(
                "    self.x =\n      try container.decodeIfPresent({}, {}) ?? false\n",
                args[0], args[1]
            )
        );
    }

    #[test]
    fn array_arguments_get_a_trailing_comma_when_broken() {
        let items: Vec<String> = (0..10).map(|i| format!("\"key{i}\"")).collect();
        let text = array_call(4, "try decoder.checkNoOtherKeys(", &items, ")");
        assert_eq!(
            text,
            format!(
                "    try decoder.checkNoOtherKeys([\n      {},\n    ])\n",
                items.join(", ")
            )
        );
    }

    #[test]
    fn long_headers_wrap_conformances_and_put_the_brace_alone() {
        let name = "N".repeat(70);
        let text = type_header(
            0,
            &format!("public struct {name}: "),
            &["Codable", "Hashable", "Sendable", "OpenUnion"],
        );
        assert!(text.ends_with("\n{\n"), "{text}");
        assert!(text.lines().all(|l| l.len() <= LINE_LIMIT), "{text}");
        assert!(text.lines().nth(1).unwrap().starts_with("  "), "{text}");
    }

    #[test]
    fn what_cannot_fit_is_exempted_visibly() {
        let ty = "T".repeat(120);
        let text = typed_declaration(2, "public let x: ", &ty, "");
        assert!(text.starts_with(&format!("  {IGNORE}\n")), "{text}");
        let ty = "T".repeat(90);
        assert_eq!(
            typed_declaration(2, "public let x: ", &ty, ""),
            format!("  public let x:\n    {ty}\n")
        );
    }
}

/// Statements built line by line at a current indentation.
#[derive(Debug, Default, Clone)]
pub struct Lines {
    out: String,
    indent: usize,
}

impl Lines {
    /// Statements starting at `indent` spaces.
    pub fn at(indent: usize) -> Self {
        Self {
            out: String::new(),
            indent,
        }
    }

    /// Appends one line at the current indentation.
    pub fn line(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.out.push_str(&" ".repeat(self.indent));
        self.out.push_str(text.as_ref());
        self.out.push('\n');
        self
    }

    /// Appends text that is already laid out (each line ending in a newline).
    pub fn raw(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.out.push_str(text.as_ref());
        self
    }

    /// Appends a call laid out by [`call`] at the current indentation.
    pub fn call(&mut self, head: &str, args: &[String], tail: &str) -> &mut Self {
        let text = call(self.indent, head, args, tail);
        self.out.push_str(&text);
        self
    }

    /// Appends a declaration laid out by [`declaration`] at the current indentation.
    pub fn declaration(&mut self, head: &str, params: &[String], tail: &str) -> &mut Self {
        let text = declaration(self.indent, head, params, tail);
        self.out.push_str(&text);
        self
    }

    /// Appends an array-argument call laid out by [`array_call`].
    pub fn array_call(&mut self, head: &str, items: &[String], tail: &str) -> &mut Self {
        let text = array_call(self.indent, head, items, tail);
        self.out.push_str(&text);
        self
    }

    /// Appends a line, preceded by [`IGNORE`] when it is too long.
    /// Appends `case a, b, …:` as swift-format fills it: the patterns on the first
    /// line while they fit, the rest on continuation lines two spaces in.
    pub fn case(&mut self, patterns: &[String]) -> &mut Self {
        let pad = " ".repeat(self.indent);
        let line = format!("{pad}case {}:", patterns.join(", "));
        if fits(&format!("{line}\n")) {
            self.out.push_str(&line);
            self.out.push('\n');
            return self;
        }
        let mut current = format!("{pad}case ");
        let mut first = true;
        for (i, pattern) in patterns.iter().enumerate() {
            let end = if i + 1 == patterns.len() { ":" } else { "," };
            let piece = if first {
                format!("{pattern}{end}")
            } else {
                format!(" {pattern}{end}")
            };
            if !first && !fits(&format!("{current}{piece}\n")) {
                self.out.push_str(&current);
                self.out.push('\n');
                current = format!("{pad}  {pattern}{end}");
            } else {
                current.push_str(&piece);
            }
            first = false;
        }
        self.out.push_str(&current);
        self.out.push('\n');
        self
    }

    pub fn guarded_line(&mut self, text: impl AsRef<str>) -> &mut Self {
        let line = format!("{}{}\n", " ".repeat(self.indent), text.as_ref());
        self.out.push_str(&guarded(line, self.indent));
        self
    }

    /// Appends an assignment laid out by [`assignment`] at the current indentation.
    pub fn assign(&mut self, lhs: &str, rhs: &str) -> &mut Self {
        let text = assignment(self.indent, lhs, rhs);
        self.out.push_str(&text);
        self
    }

    /// Indents the following lines one more level.
    pub fn push(&mut self) -> &mut Self {
        self.indent += INDENT;
        self
    }

    /// Indents the following lines one level less.
    pub fn pop(&mut self) -> &mut Self {
        self.indent = self.indent.saturating_sub(INDENT);
        self
    }

    /// The text.
    pub fn finish(self) -> String {
        self.out
    }
}
