//! Source layout that `swift-format lint --strict` accepts: doc comments wrapped to the
//! line limit, string literals, and calls broken the way swift-format breaks them.

/// swift-format's default line length.
pub const LINE_LIMIT: usize = 100;

/// Spaces per indentation level (swift-format's default).
pub const INDENT: usize = 2;

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
    for line in text.lines() {
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
            c if c.is_control() => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A call statement `head` + `args` + `tail` (e.g. `try f(` + `[a, b]` + `)`) at
/// `indent` spaces, laid out like swift-format: on one line when it fits; else the
/// arguments together on the next line; else one argument per line and `tail` on a line
/// of its own. Every line ends in `\n`.
pub fn call(indent: usize, head: &str, args: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let inner = " ".repeat(indent + INDENT);
    let joined = args.join(", ");
    let one_line = format!("{pad}{head}{joined}{tail}");
    if one_line.chars().count() <= LINE_LIMIT || args.is_empty() {
        return format!("{one_line}\n");
    }
    let second = format!("{inner}{joined}{tail}");
    if second.chars().count() <= LINE_LIMIT {
        return format!("{pad}{head}\n{second}\n");
    }
    let mut out = format!("{pad}{head}\n");
    for (i, arg) in args.iter().enumerate() {
        let comma = if i + 1 < args.len() { "," } else { "" };
        out.push_str(&format!("{inner}{arg}{comma}\n"));
    }
    out.push_str(&format!("{pad}{tail}\n"));
    out
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
    out
}

/// A statement `lhs = rhs` at `indent` spaces: on one line when it fits, else broken
/// after `=` with `rhs` indented one level. Every line ends in `\n`.
pub fn assignment(indent: usize, lhs: &str, rhs: &str) -> String {
    let pad = " ".repeat(indent);
    let one_line = format!("{pad}{lhs} = {rhs}");
    if one_line.chars().count() <= LINE_LIMIT {
        return format!("{one_line}\n");
    }
    format!("{pad}{lhs} =\n{}{rhs}\n", " ".repeat(indent + INDENT))
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
        let rhs = "r".repeat(100);
        assert_eq!(assignment(2, "a", &rhs), format!("  a =\n    {rhs}\n"));
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

    /// The current indentation in spaces.
    pub fn indent(&self) -> usize {
        self.indent
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

/// Indents every non-empty line of `text` by `spaces`.
pub fn indented(text: &str, spaces: usize) -> String {
    let pad = " ".repeat(spaces);
    text.split('\n')
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("{pad}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
