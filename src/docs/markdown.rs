//! Markdown for text a schema wrote: doc comments keep their Markdown, but nothing in
//! them can open raw HTML, run an mdBook preprocessor directive (`{{#include ...}}`),
//! break out of a table cell or close a code fence the page opened, link to a script
//! (`javascript:`, `data:`: only web, mail and relative links stay links), fetch a
//! remote image when the page is opened (an image stays a link to it), define a link
//! reference that retargets the page's links, or hide text (control, invisible and
//! bidirectional characters are written as visible `\u{XXXX}`).

/// Prose (a description): Markdown stays (emphasis, lists, code spans and fenced code
/// blocks), but `<`, `>` and `&` outside code become entities, an unclosed code fence is
/// closed, and `{{#` directives are escaped the way mdBook reads them (`\{{#`).
pub fn prose(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| match c {
            '\u{2028}' | '\u{2029}' | '\u{85}' | '\r' => '\n',
            c => c,
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut fence: Option<String> = None;
    for line in text.split('\n') {
        let trimmed = line.trim_start();
        if let Some(open) = &fence {
            out.push(directives(line));
            // A closing fence: only the fence character, at least as many as opened.
            let closing = trimmed.trim_end();
            let fence_char = open.chars().next().unwrap_or('`');
            if closing.len() >= open.len() && closing.chars().all(|c| c == fence_char) {
                fence = None;
            }
            continue;
        }
        let first = trimmed.chars().next().unwrap_or(' ');
        let marker: String = trimmed.chars().take_while(|c| *c == first).collect();
        if matches!(first, '`' | '~') && marker.len() >= 3 {
            out.extend(inline(&paragraph.join("\n")));
            paragraph.clear();
            out.push(directives(line));
            fence = Some(marker);
            continue;
        }
        if line.trim().is_empty() {
            out.extend(inline(&paragraph.join("\n")));
            paragraph.clear();
            out.push(String::new());
        } else {
            paragraph.push(line);
        }
    }
    out.extend(inline(&paragraph.join("\n")));
    if let Some(open) = fence {
        out.push(open);
    }
    out.join("\n").trim().to_owned()
}

/// One paragraph: code spans (matched backtick runs) verbatim, entities elsewhere.
fn inline(paragraph: &str) -> Option<String> {
    if paragraph.is_empty() {
        return None;
    }
    let chars: Vec<char> = paragraph.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut out = String::with_capacity(paragraph.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            let run = run_at(i);
            // The span ends at the next run of exactly the same length, if any.
            let mut j = i + run;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let other = run_at(j);
                    if other == run {
                        close = Some(j);
                        break;
                    }
                    j += other;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    let mut span = String::new();
                    for &c in &chars[i..end + run] {
                        if c.is_control() && c != '\n' || crate::emit::text::is_invisible(c) {
                            span.push_str(&crate::emit::text::visible_escape(c));
                        } else {
                            span.push(c);
                        }
                    }
                    out.push_str(&span.replace("{{#", "{ {#"));
                    i = end + run;
                }
                None => {
                    out.extend(std::iter::repeat_n('`', run));
                    i += run;
                }
            }
            continue;
        }
        // After an odd run of backslashes, `c` is already literal text.
        let escaped = chars[..i].iter().rev().take_while(|&&c| c == '\\').count() % 2 == 1;
        let line_start = chars[..i]
            .iter()
            .rev()
            .take_while(|&&c| c != '\n')
            .all(|&c| c == ' ');
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            // `![alt](url)` fetches url when the page opens: `\!` keeps the text and
            // leaves a plain link.
            '!' if !escaped && chars.get(i + 1) == Some(&'[') => out.push_str("\\!"),
            // `[label]: url` at a line's start defines a link reference for the page.
            '[' if !escaped && line_start && is_reference_definition(&chars[i..]) => {
                out.push_str("\\[")
            }
            ']' if !escaped
                && chars.get(i + 1) == Some(&'(')
                && !safe_destination(&chars[i + 2..]) =>
            {
                out.push_str("]\\(");
                i += 2;
                continue;
            }
            c if c.is_control() && c != '\n' && c != '\t' || crate::emit::text::is_invisible(c) => {
                out.push_str(&crate::emit::text::visible_escape(c))
            }
            '{' if chars.get(i + 1) == Some(&'{') && chars.get(i + 2) == Some(&'#') => {
                out.push_str("\\{")
            }
            c => out.push(c),
        }
        i += 1;
    }
    Some(out)
}

/// Whether `rest` (from a `[` at a line's start) reads as a link reference definition,
/// `[label]:`.
fn is_reference_definition(rest: &[char]) -> bool {
    let mut depth = 0usize;
    for (i, &c) in rest.iter().enumerate() {
        match c {
            '\n' => return false,
            '[' => depth += 1,
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return rest.get(i + 1) == Some(&':');
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether a link destination (the text after `](`) is one a reader can follow without
/// running anything: relative (`#anchor`, `path`, `/path`), or `http`, `https` or
/// `mailto`. A scheme is read as browsers read it: leading spaces and `<` skipped, tabs
/// and line breaks inside ignored, letters compared without case.
fn safe_destination(rest: &[char]) -> bool {
    let mut scheme = String::new();
    for &c in rest.iter().skip_while(|&&c| c == ' ' || c == '<') {
        match c {
            ':' => {
                return matches!(scheme.as_str(), "http" | "https" | "mailto");
            }
            '\t' | '\n' | '\r' => {}
            c if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') => {
                scheme.push(c.to_ascii_lowercase())
            }
            // `/`, `?`, `#`, `)`, a space: no scheme, a relative destination.
            _ => return !c.is_control() && !crate::emit::text::is_invisible(c),
        }
    }
    true
}

/// A line of a fenced code block: verbatim, but no mdBook directive.
fn directives(line: &str) -> String {
    line.replace("{{#", "\\{{#")
}

/// Prose for a table cell: one line, `|` escaped.
pub fn cell(text: &str) -> String {
    let one_line: Vec<String> = prose(text)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    one_line.join(" ").replace('|', "\\|")
}

/// `text` inside an HTML comment (`<!-- ... -->`): one line, and no `--`, so it cannot
/// end the comment early.
pub fn comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '-' && out.ends_with('-') {
            out.push(' ');
        }
        out.push(
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}') {
                ' '
            } else {
                c
            },
        );
    }
    out
}

/// Text of a link (`[text](target)`): one line, with the brackets that would end it
/// or start another escaped.
pub fn link_text(text: &str) -> String {
    cell(text).replace('[', "\\[").replace(']', "\\]")
}

/// `text` as an inline code span that shows it verbatim (on one line).
pub fn code(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}') {
                " ".to_owned()
            } else if crate::emit::text::is_invisible(c) {
                crate::emit::text::visible_escape(c)
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .replace("{{#", "{ {#")
        .replace('|', "\u{2502}");
    let longest = longest_run(&text, '`');
    let fence = "`".repeat(longest + 1);
    if longest > 0 || text.starts_with(' ') || text.ends_with(' ') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// A fenced code block of `language` holding `text` verbatim.
pub fn fenced(language: &str, text: &str) -> String {
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    format!("{fence}{language}\n{text}\n{fence}")
}

/// An HTML anchor id: lowercase ASCII letters, digits and `-`.
pub fn anchor(parts: &[&str]) -> String {
    let mut id = String::new();
    for part in parts {
        if !id.is_empty() {
            id.push('-');
        }
        for c in part.chars() {
            match c {
                'a'..='z' | '0'..='9' => id.push(c),
                'A'..='Z' => id.push(c.to_ascii_lowercase()),
                _ => {
                    if !id.ends_with('-') {
                        id.push('-');
                    }
                }
            }
        }
    }
    id.trim_matches('-').to_owned()
}

fn longest_run(text: &str, c: char) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for ch in text.chars() {
        if ch == c {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::{anchor, cell, code, comment, fenced, link_text, prose};

    #[test]
    fn schema_text_cannot_open_html_directives_or_cells() {
        assert_eq!(
            prose("a <script> & `<pid>` {{#include /etc/passwd}}"),
            "a &lt;script&gt; &amp; `<pid>` \\{{#include /etc/passwd}}"
        );
        assert_eq!(prose("open `span <b>"), "open `span &lt;b&gt;");
        assert_eq!(prose("```\n</a><img>"), "```\n</a><img>\n```");
        assert_eq!(
            prose("a\n\n```rust\nx\n```\nb <c>"),
            "a\n\n```rust\nx\n```\nb &lt;c&gt;"
        );
        assert_eq!(cell("a | b\nc\u{2028}d"), "a \\| b c d");
        assert_eq!(code("a`b"), "`` a`b ``");
        assert_eq!(code("x|y"), "`x\u{2502}y`");
        assert_eq!(code("a\u{202e}b"), "`a\\u{202E}b`");
        assert_eq!(fenced("json", "```\n"), "````json\n```\n\n````");
        assert_eq!(
            anchor(&["message", "present-review", "Ω"]),
            "message-present-review"
        );
        assert_eq!(comment("a-->b\n---"), "a- ->b - - -");
        assert_eq!(link_text("x](evil) ["), "x\\](evil) \\[");
    }

    #[test]
    fn schema_text_cannot_run_fetch_retarget_or_hide() {
        assert_eq!(
            prose("[a](JavaScript:alert(1)) [b]( data:text/html,x) [c](java\tscript:x)"),
            "[a]\\(JavaScript:alert(1)) [b]\\( data:text/html,x) [c]\\(java\tscript:x)"
        );
        assert_eq!(
            prose("[a](https://e.example/x) [b](#type-x) [c](../x.md) [d](mailto:x@e.example)"),
            "[a](https://e.example/x) [b](#type-x) [c](../x.md) [d](mailto:x@e.example)"
        );
        assert_eq!(
            prose("![pixel](https://e.example/p.png)"),
            "\\![pixel](https://e.example/p.png)"
        );
        assert_eq!(
            prose("text\n\n  [Foo]: javascript:x\n[a] b: c"),
            "text\n\n  \\[Foo]: javascript:x\n[a] b: c"
        );
        assert_eq!(
            prose("nul\u{0} esc\u{1b} rlo\u{202e} `code\u{202e}`"),
            "nul\\u{0000} esc\\u{001B} rlo\\u{202E} `code\\u{202E}`"
        );
    }
}
