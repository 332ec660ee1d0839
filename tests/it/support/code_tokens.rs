//! What a compiler reads as code in a generated file: the file with its comments and
//! the literal parts of its strings taken out (string interpolations are code and stay
//! in). Used to prove that text from a schema never becomes code: schema text carries a
//! marker no template writes (`@@`), and the marker must never show up as code.
//!
//! The reading is deliberately suspicious: a line comment ends at any Unicode line
//! terminator, and a single-line string may not hold one, whichever the language
//! allows, so that an emitter that relies on a language's leniency is caught too. Also
//! shared with the `generate` fuzz target (fuzz/fuzz_targets/generate.rs).

/// The languages whose files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// TypeScript and JavaScript (`.ts`, `.mts`, `.js`, `.mjs`).
    Js,
    Swift,
    Python,
    Json,
    Toml,
    Rust,
}

impl Lang {
    /// The language of a generated file, by its name; `None` for files that are not
    /// code (Markdown, the `py.typed` marker, symgen's manifest of what it wrote). Any
    /// other kind of file is an error: a new language's files are read as code once this
    /// reader knows the language, never skipped.
    pub fn of(path: &str) -> Result<Option<Self>, String> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
        Ok(Some(match ext {
            "ts" | "mts" | "js" | "mjs" | "cts" | "cjs" => Self::Js,
            "swift" => Self::Swift,
            "py" | "pyi" => Self::Python,
            "json" => Self::Json,
            "toml" => Self::Toml,
            "rs" => Self::Rust,
            "md" | "typed" | "symgen-manifest" => return Ok(None),
            _ => {
                return Err(format!(
                    "{path}: no reader for this kind of file; teach tests/it/support/code_tokens.rs its language (or list it as not code)"
                ));
            }
        }))
    }
}

/// The marker schema text carries; no template writes it.
pub const MARKER: &str = "@@";

/// Whether `c` ends a line in some language (or in some editor).
fn ends_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// The code of `text` read as `lang`, or why it cannot be read (an unterminated string
/// or comment).
pub fn code(lang: Lang, text: &str) -> Result<String, String> {
    let mut lexer = Lexer {
        lang,
        chars: text.chars().collect(),
        at: 0,
        code: String::with_capacity(text.len()),
        in_doc_fence: false,
    };
    lexer.code_until(None)?;
    Ok(lexer.code)
}

/// Where the marker shows up as code in `text`, as an error naming the line.
pub fn injected(lang: Lang, text: &str) -> Result<(), String> {
    let code = code(lang, text)?;
    match code.find(MARKER) {
        None => Ok(()),
        Some(at) => {
            let start = code[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = code[at..].find('\n').map_or(code.len(), |i| at + i);
            Err(format!("schema text became code: {:?}", &code[start..end]))
        }
    }
}

/// Renders `modules` with every backend (default options, no vectors) and checks the
/// files of each that renders ([`check_files`]): the names of those that rendered, or
/// the first finding, naming the backend.
pub fn render_and_check(modules: &[symgen::emit::Module]) -> Result<Vec<&'static str>, String> {
    let options = toml::Table::new();
    let mut rendered = Vec::new();
    for backend in symgen::emit::backends() {
        let input = symgen::emit::Input {
            modules,
            options: &options,
            vectors: None,
        };
        let Ok(files) = backend.render(&input) else {
            continue;
        };
        check_files(&files).map_err(|why| format!("{}: {why}", backend.name()))?;
        rendered.push(backend.name());
    }
    Ok(rendered)
}

/// Every generated file checked: its path stays inside the output directory and holds
/// no schema text, and no schema text is code in it (see [`injected`]). The error names
/// the file.
pub fn check_files(files: &[symgen::emit::OutputFile]) -> Result<(), String> {
    for file in files {
        let inside = !file.path.starts_with('/')
            && file
                .path
                .split('/')
                .all(|part| part != ".." && !part.is_empty());
        if !inside || file.path.contains(MARKER) {
            return Err(format!("a path from schema text: {:?}", file.path));
        }
        if let Some(lang) = Lang::of(&file.path)? {
            injected(lang, &file.contents).map_err(|why| format!("{}: {why}", file.path))?;
        }
        // No raw control character (NUL breaks `swift build`; ESC and BEL reach a
        // terminal) and nothing invisible or reordering (what a reader sees is what the
        // compiler reads): schema text is escaped in comments, literals and pages alike.
        if let Some((line, c)) = file.contents.lines().enumerate().find_map(|(n, line)| {
            line.chars()
                .find(|&c| c.is_control() && c != '\t' || symgen::emit::text::is_invisible(c))
                .map(|c| (n + 1, c))
        }) {
            return Err(format!("{}:{line}: raw U+{:04X}", file.path, u32::from(c)));
        }
    }
    Ok(())
}

struct Lexer {
    lang: Lang,
    chars: Vec<char>,
    at: usize,
    code: String,
    /// Inside a fenced block of a non-Rust language in Rust doc comments.
    in_doc_fence: bool,
}

impl Lexer {
    fn peek(&self, offset: usize) -> Option<char> {
        self.chars.get(self.at + offset).copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.peek(i) == Some(c))
    }

    /// Reads code up to `closer` (the end of an interpolation; `None`: the file's end),
    /// keeping bracket depth so that a nested `(` or `{` does not end it early.
    fn code_until(&mut self, closer: Option<char>) -> Result<(), String> {
        let opener = match closer {
            Some(')') => Some('('),
            Some('}') => Some('{'),
            _ => None,
        };
        let mut depth = 0usize;
        while let Some(c) = self.peek(0) {
            // Most of a file: letters, digits and spaces start nothing (except Rust's
            // raw strings, `r"…"`), so they are code as they stand.
            if c == ' ' || (c.is_ascii_alphanumeric() && !(self.lang == Lang::Rust && c == 'r')) {
                self.code.push(c);
                self.at += 1;
                continue;
            }
            if Some(c) == closer {
                if depth == 0 {
                    self.at += 1;
                    return Ok(());
                }
                depth -= 1;
            } else if Some(c) == opener {
                depth += 1;
            }
            let slash_comments = matches!(self.lang, Lang::Js | Lang::Swift | Lang::Rust);
            let hash_comments = matches!(self.lang, Lang::Python | Lang::Toml);
            if (slash_comments && self.starts_with("//")) || (hash_comments && c == '#') {
                if self.lang == Lang::Rust {
                    self.rust_doc_line()?;
                }
                while self.peek(0).is_some_and(|c| !ends_line(c)) {
                    self.at += 1;
                }
                self.code.push('\n');
                continue;
            }
            if slash_comments && self.starts_with("/*") {
                self.block_comment()?;
                continue;
            }
            if self.string_start()? {
                continue;
            }
            self.code.push(c);
            self.at += 1;
        }
        match closer {
            None => Ok(()),
            Some(_) => Err("an interpolation that does not end".into()),
        }
    }

    /// `/* ... */`; Swift's nest.
    fn block_comment(&mut self) -> Result<(), String> {
        let nests = matches!(self.lang, Lang::Swift | Lang::Rust);
        let mut depth = 0usize;
        while self.peek(0).is_some() {
            if self.starts_with("/*") && (depth == 0 || nests) {
                depth += 1;
                self.at += 2;
            } else if self.starts_with("*/") {
                depth -= 1;
                self.at += 2;
                if depth == 0 {
                    self.code.push(' ');
                    return Ok(());
                }
            } else {
                self.at += 1;
            }
        }
        Err("a block comment that does not end".into())
    }

    /// Reads a string literal starting here, if one does; its interpolations are code.
    fn string_start(&mut self) -> Result<bool, String> {
        let c = self.peek(0).unwrap_or(' ');
        match self.lang {
            Lang::Js => match c {
                '"' | '\'' => self.quoted(c, false, false, None).map(|()| true),
                '`' => self
                    .quoted('`', false, false, Some(("${", '}')))
                    .map(|()| true),
                _ => Ok(false),
            },
            Lang::Json => match c {
                '"' => self.quoted('"', false, false, None).map(|()| true),
                _ => Ok(false),
            },
            Lang::Toml => match c {
                '"' | '\'' => {
                    let triple = self.starts_with(&c.to_string().repeat(3));
                    self.quoted(c, triple, c == '\'', None).map(|()| true)
                }
                _ => Ok(false),
            },
            Lang::Rust => self.rust_string(c),
            Lang::Swift => {
                let hashes = self.chars[self.at..]
                    .iter()
                    .take_while(|&&c| c == '#')
                    .count();
                if self.peek(hashes) != Some('"') {
                    return Ok(false);
                }
                self.at += hashes;
                let triple = self.starts_with("\"\"\"");
                self.swift_string(hashes, triple).map(|()| true)
            }
            Lang::Python => {
                if c != '"' && c != '\'' {
                    return Ok(false);
                }
                // The prefix letters were read as code just before the quote.
                let prefix: String = self
                    .code
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let prefix = prefix.to_ascii_lowercase();
                let known = prefix.len() <= 2 && prefix.chars().all(|c| "rbfu".contains(c));
                let format = known && prefix.contains('f');
                let triple = self.starts_with(&c.to_string().repeat(3));
                let interpolation = format.then_some(("{", '}'));
                // A backslash keeps a quote from ending even a raw string.
                self.quoted(c, triple, false, interpolation).map(|()| true)
            }
        }
    }

    /// A Rust doc comment (`///`, `//!`) starting here: its text is Markdown, and
    /// rustdoc compiles and runs a code block in it unless the fence names another
    /// language (`json`, `text`), so such a fence, or an indented line, is code.
    fn rust_doc_line(&mut self) -> Result<(), String> {
        if !(self.starts_with("///") || self.starts_with("//!")) || self.starts_with("////") {
            return Ok(());
        }
        let text: String = self.chars[self.at + 3..]
            .iter()
            .take_while(|c| !ends_line(**c))
            .collect();
        let trimmed = text.trim_start_matches(' ');
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        if self.in_doc_fence {
            self.in_doc_fence = !fence;
            return Ok(());
        }
        let info = trimmed.trim_start_matches(['`', '~']).trim();
        if fence && matches!(info, "json" | "text") {
            self.in_doc_fence = true;
            return Ok(());
        }
        // One space after `///` is the comment's own.
        let indent = text.len() - trimmed.len();
        if fence || indent > 4 || trimmed.starts_with('\t') {
            return Err(format!("a code block in a doc comment: {text:?}"));
        }
        Ok(())
    }

    /// A Rust string, raw string or character literal starting here (a lifetime is
    /// code).
    fn rust_string(&mut self, c: char) -> Result<bool, String> {
        let after_ident = self
            .code
            .chars()
            .last()
            .is_some_and(|p| p.is_alphanumeric() || p == '_');
        if c == 'r' && !after_ident {
            let hashes = self.chars[self.at + 1..]
                .iter()
                .take_while(|&&c| c == '#')
                .count();
            if self.peek(1 + hashes) == Some('"') {
                self.at += 1 + hashes + 1;
                let closer: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                while !self.starts_with(&closer) {
                    if self.peek(0).is_none() {
                        return Err("a raw string that does not end".into());
                    }
                    self.at += 1;
                }
                self.at += closer.chars().count();
                self.code.push_str("\"\"");
                return Ok(true);
            }
            return Ok(false);
        }
        match c {
            '"' => self.quoted('"', false, false, None).map(|()| true),
            '\'' => {
                // `'x'` and `'\n'` are characters; `'a` (no closing quote) a lifetime.
                let len = if self.peek(1) == Some('\\') {
                    (2..12).find(|&i| self.peek(i) == Some('\''))
                } else {
                    (self.peek(2) == Some('\'')).then_some(2)
                };
                match len {
                    Some(len) => {
                        self.at += len + 1;
                        self.code.push_str("' '");
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
            _ => Ok(false),
        }
    }

    /// A string delimited by `quote` (three of them when `triple`); `raw`: a backslash
    /// escapes nothing (TOML literal strings); `interpolation`: what opens code inside
    /// it, and what closes it.
    fn quoted(
        &mut self,
        quote: char,
        triple: bool,
        raw: bool,
        interpolation: Option<(&str, char)>,
    ) -> Result<(), String> {
        let width = if triple { 3 } else { 1 };
        let delimiter = quote.to_string().repeat(width);
        let multiline = triple || quote == '`';
        self.at += width;
        self.code.push_str("\"\"");
        loop {
            let Some(c) = self.peek(0) else {
                return Err("a string that does not end".into());
            };
            if self.starts_with(&delimiter) {
                self.at += width;
                return Ok(());
            }
            if let Some((open, close)) = interpolation {
                // Python's `{{` is a literal brace.
                let doubled = open == "{" && self.starts_with("{{");
                if doubled {
                    self.at += 2;
                    continue;
                }
                if self.starts_with(open) {
                    self.at += open.chars().count();
                    self.code_until(Some(close))?;
                    continue;
                }
            }
            if c == '\\' && !raw {
                self.at += 2;
                continue;
            }
            if ends_line(c) && !multiline {
                return Err(format!("a line terminator {c:?} inside a one-line string"));
            }
            self.at += 1;
        }
    }

    /// A Swift string after its leading `#`s: escapes and interpolations take the same
    /// number of `#`s after the backslash.
    fn swift_string(&mut self, hashes: usize, triple: bool) -> Result<(), String> {
        let pad = "#".repeat(hashes);
        let delimiter = format!("{}{pad}", if triple { "\"\"\"" } else { "\"" });
        let escape = format!("\\{pad}");
        self.at += if triple { 3 } else { 1 };
        self.code.push_str("\"\"");
        loop {
            let Some(c) = self.peek(0) else {
                return Err("a string that does not end".into());
            };
            if self.starts_with(&delimiter) {
                self.at += delimiter.chars().count();
                return Ok(());
            }
            if self.starts_with(&escape) {
                self.at += escape.chars().count();
                if self.peek(0) == Some('(') {
                    self.at += 1;
                    self.code_until(Some(')'))?;
                } else {
                    self.at += 1;
                }
                continue;
            }
            if ends_line(c) && !triple {
                return Err(format!("a line terminator {c:?} inside a one-line string"));
            }
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_literals_are_not_code() {
        let js = "const a = \"@@\"; // @@\n/* @@ */ let b = `x${ c + \"@@\" }@@`;";
        assert_eq!(injected(Lang::Js, js), Ok(()));
        let swift = "let a = \"@@\\(b)\" /* /* @@ */ @@ */ // @@\nlet c = #\"@@\\(x)\"#";
        assert_eq!(injected(Lang::Swift, swift), Ok(()));
        let python = "a = f\"{b!r} {{@@}}\"  # @@\nc = '''@@\n'''\nd = r'\\'@@'";
        assert_eq!(injected(Lang::Python, python), Ok(()));
        assert_eq!(injected(Lang::Toml, "a = '@@\\' # @@"), Ok(()));
        let rust = "/// @@ doc\nfn f<'a>(x: &'a str) -> char { let _ = r#\"@@\"#; let _ = \"@@\\\"\"; '\"' } /* /* @@ */ @@ */";
        assert_eq!(injected(Lang::Rust, rust), Ok(()));
    }

    #[test]
    fn text_that_escapes_is_found() {
        let cases = [
            (Lang::Js, "// doc\u{2028}@@()"),
            (Lang::Js, "/** doc */ @@ */"),
            (Lang::Js, "const a = `${@@}`;"),
            (Lang::Swift, "/// doc\r@@()"),
            (Lang::Swift, "let a = \"\\(@@)\""),
            (Lang::Js, "/* /* */ @@ */"),
            (Lang::Python, "a = f\"{@@}\""),
            (Lang::Python, "\"\"\"doc\"\"\" @@"),
            (Lang::Json, "{\"a\": \"x\"@@\"\"}"),
            (Lang::Toml, "a = 'x\\' @@ '"),
            (Lang::Rust, "/// doc\r@@()"),
            (Lang::Rust, "/* /* */ */ @@"),
            (Lang::Rust, "let a = '\"'; @@"),
        ];
        for (lang, text) in cases {
            assert!(injected(lang, text).is_err(), "{lang:?}: {text:?}");
        }
        assert!(code(Lang::Js, "\"a\nb\"").is_err());
        assert!(code(Lang::Swift, "/* a").is_err());
        // rustdoc runs a code block in a doc comment as a doctest.
        assert!(code(Lang::Rust, "/// ```\n/// @@\n/// ```").is_err());
        assert!(code(Lang::Rust, "///\n///     @@").is_err());
        assert!(code(Lang::Rust, "/// ```json\n///     {}\n/// ```\n/// ```rust").is_err());
        assert!(code(Lang::Rust, "/// ```json\n///     {}\n/// ```").is_ok());
    }
}
