//! A seeded generator of realistic field values: UUIDs, paths, names, prose, code lines.
//! Everything comes from one `fastrand::Rng` with a fixed seed, so a corpus is the same
//! bytes on every machine and every run.

use serde_json::{Value, json};

/// Realistic values drawn from fixed pools with a seeded RNG.
pub struct Gen {
    rng: fastrand::Rng,
}

const PROJECTS: &[&str] = &[
    "acme", "billing", "atlas", "orbit", "ledger", "kiosk", "parser", "quartz", "nimbus",
];
const USERS: &[&str] = &["dev", "alice", "bob", "nmatsakis", "jordan", "sam"];
const SOURCE_DIRS: &[&str] = &[
    "src",
    "src/auth",
    "src/api",
    "lib",
    "crates/core/src",
    "tests",
];
const FILE_STEMS: &[&str] = &[
    "main", "lib", "auth", "routes", "parser", "session", "config", "token", "store", "util",
];
const EXTENSIONS: &[(&str, &str)] = &[
    ("rs", "rust"),
    ("ts", "typescript"),
    ("py", "python"),
    ("swift", "swift"),
    ("md", "markdown"),
];
const WORDS: &[&str] = &[
    "parser",
    "token",
    "session",
    "window",
    "taskspace",
    "refactor",
    "validate",
    "request",
    "handler",
    "cache",
    "retry",
    "timeout",
    "config",
    "error",
    "test",
    "fix",
    "the",
    "a",
    "flaky",
    "login",
    "daemon",
    "socket",
    "schema",
    "review",
    "update",
    "build",
    "agent",
];
const SYMBOLS: &[&str] = &[
    "validateToken",
    "User",
    "SessionStore",
    "parse_header",
    "IpcMessage",
    "handle_request",
    "Config",
    "retry_with_backoff",
    "TaskspaceView",
    "decodeLine",
];
const KINDS: &[&str] = &[
    "Function",
    "Class",
    "Method",
    "Struct",
    "Variable",
    "Interface",
    "Enum",
    "Constant",
];
const CODE_LINES: &[&str] = &[
    "fn main() {}",
    "let token = header.split(' ').nth(1)?;",
    "return Err(AuthError::Expired);",
    "use std::fmt;",
    "if (!session) { throw new Error(\"no session\"); }",
    "self.cache.insert(key, value);",
    "for line in reader.lines() {",
    "// 💡 validate before decode",
    "const x = await client.request(\"ping\");",
    "\tprint(f\"{name}: {count}\")",
];
const COLLABORATORS: &[&str] = &["sparkle", "socrates", "claude", "q"];

impl Gen {
    /// A generator with a fixed seed.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// A uniformly random index below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.usize(..n)
    }

    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: u32, hi: u32) -> u32 {
        self.rng.u32(lo..=hi)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
    }

    /// One element of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// An index chosen with the given relative weights.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut roll = self.rng.u32(..total);
        for (index, weight) in weights.iter().enumerate() {
            if roll < *weight {
                return index;
            }
            roll -= weight;
        }
        weights.len() - 1
    }

    /// A random version-4 UUID, lower case (upper case when `upper`).
    pub fn uuid_case(&mut self, upper: bool) -> String {
        let a = self.rng.u64(..);
        let b = self.rng.u64(..);
        let text = format!(
            "{:08x}-{:04x}-4{:03x}-{:x}{:03x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            8 + (b >> 62),
            (b >> 48) & 0xfff,
            b & 0xffff_ffff_ffff
        );
        if upper { text.to_uppercase() } else { text }
    }

    /// A random lower-case UUID.
    pub fn uuid(&mut self) -> String {
        self.uuid_case(false)
    }

    /// A user name.
    pub fn user(&mut self) -> &'static str {
        self.pick(USERS)
    }

    /// A project name.
    pub fn project(&mut self) -> &'static str {
        self.pick(PROJECTS)
    }

    /// `/home/<user>/<project>.symposium`.
    pub fn project_path(&mut self, user: &str, project: &str) -> String {
        format!("/home/{user}/{project}.symposium")
    }

    /// A source file path relative to a workspace, and its language id.
    pub fn source_file(&mut self) -> (String, &'static str) {
        let dir = self.pick(SOURCE_DIRS);
        let stem = self.pick(FILE_STEMS);
        let (ext, lang) = self.pick(EXTENSIONS);
        (format!("{dir}/{stem}.{ext}"), lang)
    }

    /// A symbol name.
    pub fn symbol(&mut self) -> &'static str {
        self.pick(SYMBOLS)
    }

    /// An LSP symbol kind name.
    pub fn kind(&mut self) -> &'static str {
        self.pick(KINDS)
    }

    /// A line of code.
    pub fn code_line(&mut self) -> &'static str {
        self.pick(CODE_LINES)
    }

    /// A collaborator persona.
    pub fn collaborator(&mut self) -> &'static str {
        self.pick(COLLABORATORS)
    }

    /// `words` random words, the first capitalised.
    pub fn sentence(&mut self, words: usize) -> String {
        let mut out = String::new();
        for index in 0..words {
            let word = self.pick(WORDS);
            if index == 0 {
                let mut chars = word.chars();
                if let Some(first) = chars.next() {
                    out.extend(first.to_uppercase());
                    out.push_str(chars.as_str());
                }
            } else {
                out.push(' ');
                out.push_str(word);
            }
        }
        out
    }

    /// A sentence of `lo..=hi` words.
    pub fn prose(&mut self, lo: u32, hi: u32) -> String {
        let words = self.int(lo, hi) as usize;
        self.sentence(words)
    }

    /// A 1-based `{line, column}` location.
    pub fn location(&mut self, line: u32) -> Value {
        json!({"line": line, "column": self.int(1, 80)})
    }

    /// A `FileRange` in `root`, without `content` unless `content` is set.
    pub fn file_range(&mut self, root: &str, content: bool) -> Value {
        let (file, _) = self.source_file();
        let line = self.int(1, 900);
        let end = line + self.int(0, 3);
        let mut range = json!({
            "path": format!("{root}/{file}"),
            "start": self.location(line),
            "end": self.location(end),
        });
        if content {
            range["content"] = json!(self.code_line());
        }
        range
    }

    /// A `SymbolDef` defined in `root`.
    pub fn symbol_def(&mut self, root: &str) -> Value {
        let mut def = json!({"name": self.symbol()});
        if self.chance(0.8) {
            def["kind"] = json!(self.kind());
        }
        def["definedAt"] = self.file_range(root, false);
        def
    }

    /// Standard base64 (with padding) of `len` pseudo-random bytes.
    pub fn base64(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let bytes: Vec<u8> = (0..len).map(|_| self.rng.u8(..)).collect();
        let mut out = String::with_capacity(len.div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
            let sextets = [n >> 18, n >> 12, n >> 6, n];
            for (i, sextet) in sextets.iter().enumerate() {
                if i <= chunk.len() {
                    out.push(ALPHABET[(sextet & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    /// A millisecond timestamp in late 2023 .. 2025.
    pub fn timestamp_ms(&mut self) -> u64 {
        1_700_000_000_000 + self.rng.u64(..60_000_000_000)
    }
}
