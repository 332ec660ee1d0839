//! `$ref` resolution: JSON Pointers anywhere in a document, anchors (`$anchor`,
//! `$dynamicAnchor`), embedded resources (`$id` below the root), and other documents —
//! the caller's other inputs (by `$id` or path) and sibling files read from the
//! directories the caller allows. Nothing is fetched over the network and nothing is
//! read outside those directories; devices, FIFOs and files over [`MAX_FILE`] are
//! refused. A `$ref` to a JSON Schema meta-schema resolves to "any JSON value" (a
//! schema is JSON), with a warning.
//!
//! Every document is resolved up front ([`Resources::load`]): the parser then maps a
//! `$ref` to its target's location without touching the disk.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::uri::resolve as resolve_uri;
use serde_json::Value;

use super::drafts::{self, Draft};
use super::keywords::subschemas;
use crate::model::{Error, Reach, Warning};

/// How many documents one schema may pull in through `$ref`s.
const MAX_DOCUMENTS: usize = 4096;

/// The meta-schemas of the drafts, which a `$ref` may name to mean "a JSON Schema".
const META_SCHEMAS: &[&str] = &[
    "http://json-schema.org/draft-04/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2020-12/schema",
    "http://json-schema.org/schema",
];

/// Where `$ref`s to other documents may be resolved: other inputs (given by the
/// caller, found by `$id` or path) and directories whose files may be read.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    roots: Vec<PathBuf>,
    inputs: Vec<(String, Option<PathBuf>, Value)>,
}

impl Sources {
    /// No other documents: every `$ref` stays inside the document.
    pub fn none() -> Self {
        Self::default()
    }

    /// Allows reading schema files below `dir` (canonicalized; ignored when it does not
    /// exist).
    pub fn with_root(mut self, dir: &Path) -> Self {
        if let Ok(dir) = dir.canonicalize()
            && !self.roots.contains(&dir)
        {
            self.roots.push(dir);
        }
        self
    }

    /// Adds an input document (`file` as named in messages, its path when it has one).
    pub fn with_input(mut self, file: &str, path: Option<&Path>, document: Value) -> Self {
        let path = path.and_then(|p| p.canonicalize().ok());
        self.inputs.push((file.to_owned(), path, document));
        self
    }
}

/// A document taking part in resolution.
pub(super) struct Document {
    /// How messages name it.
    pub file: String,
    /// Its path on disk, when it has one (canonical).
    pub path: Option<PathBuf>,
    /// Its content, in the 2020-12 spelling.
    pub value: Value,
    /// Its content as written, when that spelling differs (an older draft's keywords):
    /// what a location is translated into for messages ([`Resources::as_written`]).
    pub written: Option<Value>,
    /// The draft it was read as: what its keywords mean where the 2020-12 spelling
    /// cannot say it (a draft-04 `integer`, see [`Document::integer_literal_only`]).
    pub draft: Draft,
    /// Its base URI.
    pub base: String,
}

impl Document {
    /// Whether an `integer` of this document is read from an integer literal only:
    /// draft-04 defines an integer as a JSON number without a fraction or exponent
    /// part, so `1.0` is not one (from draft-06 on, any number whose fraction is zero
    /// is), and its validators read `-0` as the float it is spelled as.
    pub fn integer_literal_only(&self) -> bool {
        self.draft == Draft::D4
    }
}

/// Where a `$ref` leads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Target {
    /// The schema at `pointer` in document `doc` (0 is the document being parsed).
    Schema { doc: usize, pointer: String },
    /// A JSON Schema meta-schema: any JSON value.
    MetaSchema,
}

/// Every document a schema reaches, with its resources and anchors.
pub(super) struct Resources {
    pub docs: Vec<Document>,
    /// Absolute URI (without fragment, or with an anchor fragment) → location.
    by_uri: HashMap<String, (usize, String)>,
    /// Per document, its embedded resources: (pointer, base URI), outermost first.
    embedded: Vec<Vec<(String, String)>>,
    /// `(document, pointer of the $ref keyword)` → target.
    resolved: HashMap<(usize, String), Result<Target, String>>,
    /// `(document, base URI, reference)` → target: for `$ref`s the parser reads at a
    /// pointer of its own making (a union flattened out of an `allOf`).
    by_reference: HashMap<(usize, String, String), Result<Target, String>>,
    /// How a document was read where it left the reading open (a `$schema` naming no
    /// draft, a fragment without its leading `/`): warnings for the parser to pass on.
    pub notes: Vec<Warning>,
}

fn percent_encode_path(path: &Path) -> String {
    crate::uri::percent_encode(&path.to_string_lossy(), b"-._~/")
}

fn percent_decode(text: &str) -> Option<String> {
    super::keywords::percent_decode(text)
}

/// The base URI of a document: its absolute `$id`, else its file URI, else a name of
/// its own.
fn base_of(value: &Value, path: Option<&Path>, index: usize) -> String {
    let file_uri = path.map(|p| format!("file://{}", percent_encode_path(p)));
    let fallback = file_uri.unwrap_or_else(|| format!("symgen-document:///{index}"));
    match value.get("$id").and_then(Value::as_str) {
        Some(id) => resolve_uri(&fallback, id).unwrap_or(fallback),
        None => fallback,
    }
}

/// Whether `uri` (without a fragment, or with an empty one) names a draft's
/// meta-schema: a `$ref` to it means "any JSON Schema".
pub(crate) fn is_meta_schema(uri: &str) -> bool {
    META_SCHEMAS.contains(&strip_empty_fragment(uri))
}

/// Where messages place what a `$ref` to a meta-schema stands for: the pointer of the
/// type it becomes, and of the warning that it is not checked as a schema (the
/// validator's failures inside a meta-schema are placed under it too).
pub(crate) const META_SCHEMA_POINTER: &str = "#meta-schema";

fn strip_empty_fragment(uri: &str) -> &str {
    uri.strip_suffix('#').unwrap_or(uri)
}

impl Resources {
    /// The document `document` (named `file`, at `path`) and everything its `$ref`s
    /// reach through `sources`, resolved.
    pub fn load(
        file: &str,
        path: Option<&Path>,
        document: Value,
        written: Option<Value>,
        draft: Draft,
        sources: &Sources,
    ) -> Result<Resources, Error> {
        let path = path.and_then(|p| p.canonicalize().ok());
        let base = base_of(&document, path.as_deref(), 0);
        let mut resources = Resources {
            docs: vec![Document {
                file: file.to_owned(),
                path,
                value: document,
                written,
                draft,
                base,
            }],
            by_uri: HashMap::new(),
            embedded: vec![Vec::new()],
            resolved: HashMap::new(),
            by_reference: HashMap::new(),
            notes: Vec::new(),
        };
        let mut id_index: Option<HashMap<String, PathBuf>> = None;
        resources.index(0);
        // Schemas to walk for `$ref`s: the document's root, then every target a `$ref`
        // reaches (it may sit in a container the walk does not enter, or in another
        // document, of which only what is reached is used).
        let mut pending: Vec<(usize, String)> = vec![(0, String::new())];
        let mut walked: HashSet<(usize, String)> = HashSet::new();
        while let Some((doc, at)) = pending.pop() {
            if !walked.insert((doc, at.clone())) {
                continue;
            }
            let Some(schema) = resources.docs[doc].value.pointer(&at) else {
                continue;
            };
            let mut refs = Vec::new();
            collect_refs(schema, &at, &mut refs, 0);
            for (pointer, reference) in refs {
                if resources.resolved.contains_key(&(doc, pointer.clone())) {
                    continue;
                }
                let outcome =
                    resources.resolve_one(doc, &pointer, &reference, sources, &mut id_index)?;
                if let Ok(Target::Schema { doc, pointer }) = &outcome {
                    pending.push((*doc, pointer.clone()));
                }
                let base = resources.base_at(doc, &pointer).to_owned();
                resources
                    .by_reference
                    .entry((doc, base, reference))
                    .or_insert_with(|| outcome.clone());
                resources.resolved.insert((doc, pointer), outcome);
            }
        }
        Ok(resources)
    }

    /// Registers a document's resources and anchors.
    fn index(&mut self, doc: usize) {
        let base = self.docs[doc].base.clone();
        self.by_uri
            .entry(base.clone())
            .or_insert((doc, String::new()));
        if let Some(path) = &self.docs[doc].path {
            let file_uri = format!("file://{}", percent_encode_path(path));
            self.by_uri.entry(file_uri).or_insert((doc, String::new()));
        }
        let mut found = Vec::new();
        collect_resources(&self.docs[doc].value, "", &base, &mut found, 0);
        while self.embedded.len() <= doc {
            self.embedded.push(Vec::new());
        }
        for resource in found {
            match resource {
                Found::Resource { pointer, uri } => {
                    self.by_uri
                        .entry(uri.clone())
                        .or_insert((doc, pointer.clone()));
                    self.embedded[doc].push((pointer, uri));
                }
                Found::Anchor { pointer, uri } => {
                    self.by_uri.entry(uri).or_insert((doc, pointer));
                }
            }
        }
    }

    /// The base URI in effect at `pointer` of `doc`.
    fn base_at(&self, doc: usize, pointer: &str) -> &str {
        let mut base = self.docs[doc].base.as_str();
        for (resource, uri) in &self.embedded[doc] {
            if pointer == resource
                || (pointer.starts_with(resource.as_str())
                    && pointer[resource.len()..].starts_with('/'))
            {
                base = uri;
            }
        }
        base
    }

    fn resolve_one(
        &mut self,
        doc: usize,
        pointer: &str,
        reference: &str,
        sources: &Sources,
        id_index: &mut Option<HashMap<String, PathBuf>>,
    ) -> Result<Result<Target, String>, Error> {
        let base = self.base_at(doc, pointer).to_owned();
        let (uri_part, fragment) = match reference.split_once('#') {
            Some((uri, fragment)) => (uri, Some(fragment)),
            None => (reference, None),
        };
        let Some(fragment) = percent_decode(fragment.unwrap_or("")) else {
            return Ok(Err(format!("malformed `$ref` {reference:?}")));
        };
        let absolute = if uri_part.is_empty() {
            base.clone()
        } else {
            match resolve_uri(&base, uri_part) {
                Some(uri) => uri,
                None => return Ok(Err(format!("malformed `$ref` {reference:?}"))),
            }
        };
        if is_meta_schema(&absolute) && !self.by_uri.contains_key(&absolute) {
            return Ok(Ok(Target::MetaSchema));
        }
        let located = match self.by_uri.get(&absolute).cloned() {
            Some(found) => found,
            None => match self.open(&absolute, uri_part, doc, sources, id_index)? {
                Some(found) => found,
                None => {
                    return Ok(Err(format!(
                        "`$ref` {reference:?} names a document that is not available: symgen reads only the schemas given and files beside them, and never fetches"
                    )));
                }
            },
        };
        let (target_doc, resource_pointer) = located;
        if fragment.is_empty() {
            return Ok(Ok(Target::Schema {
                doc: target_doc,
                pointer: resource_pointer,
            }));
        }
        if fragment.starts_with('/') {
            let pointer = format!("{resource_pointer}{fragment}");
            if self.docs[target_doc].value.pointer(&pointer).is_none() {
                return Ok(Err(format!(
                    "`$ref` {reference:?} points at nothing in its document"
                )));
            }
            return Ok(Ok(Target::Schema {
                doc: target_doc,
                pointer,
            }));
        }
        let anchor = format!("{absolute}#{fragment}");
        match self.by_uri.get(&anchor) {
            Some((doc, pointer)) => Ok(Ok(Target::Schema {
                doc: *doc,
                pointer: pointer.clone(),
            })),
            // No anchor of that name, but a JSON Pointer once a `/` leads it
            // (`#definitions/Foo`): read as that pointer, as other readers do.
            None if fragment.contains('/')
                && self.docs[target_doc]
                    .value
                    .pointer(&format!("{resource_pointer}/{fragment}"))
                    .is_some() =>
            {
                let file = self.docs[doc].file.clone();
                let note = format!(
                    "`$ref` {reference:?} names no anchor; read as the JSON Pointer \"#/{fragment}\" (a fragment that is a pointer starts with `/`)"
                );
                self.notes
                    .push(Warning::new(&file, pointer, note).reaching(Reach::Keyword));
                Ok(Ok(Target::Schema {
                    doc: target_doc,
                    pointer: format!("{resource_pointer}/{fragment}"),
                }))
            }
            None => Ok(Err(format!(
                "`$ref` {reference:?} names an anchor that does not exist"
            ))),
        }
    }

    /// Loads the document at absolute URI `uri` (from the inputs, by `$id` or path, or
    /// from an allowed directory) and returns its location.
    fn open(
        &mut self,
        uri: &str,
        uri_part: &str,
        from: usize,
        sources: &Sources,
        id_index: &mut Option<HashMap<String, PathBuf>>,
    ) -> Result<Option<(usize, String)>, Error> {
        if self.docs.len() >= MAX_DOCUMENTS {
            return Ok(None);
        }
        // An input with this `$id` or path.
        for (file, path, value) in &sources.inputs {
            let base = base_of(value, path.as_deref(), usize::MAX);
            let file_uri = path
                .as_deref()
                .map(|p| format!("file://{}", percent_encode_path(p)));
            if base == uri || file_uri.as_deref() == Some(uri) {
                let index = self.add(file.clone(), path.clone(), value.clone())?;
                return Ok(Some((index, String::new())));
            }
        }
        // A file: by path (a `file:` URI inside an allowed directory), else a sibling
        // of the referring document with the reference's relative path, else any file
        // in the allowed directories whose `$id` is `uri`.
        let mut candidates = Vec::new();
        if let Some(path) = uri.strip_prefix("file://").and_then(percent_decode) {
            candidates.push(PathBuf::from(path));
        }
        let relative = !uri_part.contains(':');
        if relative
            && let Some(dir) = self.docs[from].path.as_deref().and_then(Path::parent)
            && let Some(decoded) = percent_decode(uri_part)
        {
            candidates.push(dir.join(decoded));
        }
        for candidate in candidates {
            if let Some(path) = allowed(&candidate, sources) {
                return self.read(&path).map(Some);
            }
        }
        if sources.roots.is_empty() {
            return Ok(None);
        }
        let index = id_index.get_or_insert_with(|| index_ids(sources));
        match index.get(uri).cloned() {
            Some(path) => self.read(&path).map(Some),
            None => Ok(None),
        }
    }

    fn read(&mut self, path: &Path) -> Result<(usize, String), Error> {
        if let Some(index) = self
            .docs
            .iter()
            .position(|d| d.path.as_deref() == Some(path))
        {
            return Ok((index, String::new()));
        }
        let file = path.display().to_string();
        let text =
            crate::files::read_capped(path).map_err(|message| Error::new(&file, "", message))?;
        let value =
            crate::schema_file::parse(&file, &text).map_err(|err| Error::new(&file, "", err))?;
        let index = self.add(file, Some(path.to_owned()), value)?;
        Ok((index, String::new()))
    }

    fn add(&mut self, file: String, path: Option<PathBuf>, value: Value) -> Result<usize, Error> {
        let root = value
            .as_object()
            .ok_or_else(|| Error::new(&file, "", "the document is not a JSON Schema object"))?;
        let (draft, assumed) = drafts::draft_of(&file, root)?;
        if let Some(note) = assumed {
            self.notes
                .push(Warning::new(&file, "/$schema", note).reaching(Reach::Keyword));
        }
        drafts::meta_validate(&file, &value, draft)?;
        let (value, written, ignored) = drafts::normalized(value, draft);
        for ignored in ignored {
            let message = ignored.message(draft);
            self.notes
                .push(Warning::new(&file, &ignored.pointer, message).reaching(Reach::Nothing));
        }
        let index = self.docs.len();
        let base = base_of(&value, path.as_deref(), index);
        self.docs.push(Document {
            file,
            path,
            value,
            written,
            draft,
            base,
        });
        self.index(index);
        Ok(index)
    }

    /// A location as messages show it (a pointer into the document being parsed, or
    /// `file#pointer` into another) translated into the document as written, where an
    /// older draft's keyword was rewritten (see [`drafts::as_written`]).
    pub fn as_written(&self, shown: &str) -> String {
        for doc in self.docs.iter().skip(1) {
            if let Some(rest) = shown.strip_prefix(doc.file.as_str())
                && let Some(pointer) = rest.strip_prefix('#')
            {
                return match &doc.written {
                    Some(written) => {
                        format!("{}#{}", doc.file, drafts::as_written(written, pointer))
                    }
                    None => shown.to_owned(),
                };
            }
        }
        match &self.docs[0].written {
            Some(written) if shown.is_empty() || shown.starts_with('/') => {
                drafts::as_written(written, shown)
            }
            _ => shown.to_owned(),
        }
    }

    /// `error` with its location in the document as written: a location in a
    /// referenced document when it names that document's file.
    pub fn error_as_written(&self, mut error: Error) -> Error {
        if let Some(doc) = self.docs.iter().skip(1).find(|doc| doc.file == error.file) {
            if let Some(written) = &doc.written {
                error.pointer = drafts::as_written(written, &error.pointer);
            }
        } else {
            error.pointer = self.as_written(&error.pointer);
        }
        error
    }

    /// Where the `$ref` `reference` at `pointer` (the keyword's own pointer) of `doc`
    /// leads.
    pub fn target(
        &self,
        doc: usize,
        pointer: &str,
        reference: &str,
    ) -> Option<&Result<Target, String>> {
        self.resolved.get(&(doc, pointer.to_owned())).or_else(|| {
            let base = self.base_at(doc, pointer).to_owned();
            self.by_reference.get(&(doc, base, reference.to_owned()))
        })
    }

    /// Every resolved `$ref`.
    pub fn targets(&self) -> impl Iterator<Item = &Target> {
        self.resolved.values().filter_map(|r| r.as_ref().ok())
    }
}

fn allowed(path: &Path, sources: &Sources) -> Option<PathBuf> {
    crate::files::inside(path, &sources.roots)
}

/// `$id` (resolved) → path of every `*.json` file directly in the allowed directories.
fn index_ids(sources: &Sources) -> HashMap<String, PathBuf> {
    crate::files::ids_in(&sources.roots)
        .into_iter()
        .filter_map(|(id, path)| Some((resolve_uri("symgen-document:///", &id)?, path)))
        .collect()
}

const MAX_DEPTH: usize = 256;

/// Every `$ref` and `$dynamicRef` below `schema`: (pointer of the keyword, reference).
pub(super) fn collect_refs(
    schema: &Value,
    pointer: &str,
    out: &mut Vec<(String, String)>,
    depth: usize,
) {
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    for key in ["$ref", "$dynamicRef"] {
        if let Some(Value::String(reference)) = object.get(key) {
            out.push((crate::json_pointer::child(pointer, key), reference.clone()));
        }
    }
    subschemas(object, pointer, |sub, at| {
        collect_refs(sub, &at, out, depth + 1)
    });
}

enum Found {
    Resource { pointer: String, uri: String },
    Anchor { pointer: String, uri: String },
}

/// Embedded resources (`$id` below the root) and anchors below `schema`.
fn collect_resources(
    schema: &Value,
    pointer: &str,
    base: &str,
    out: &mut Vec<Found>,
    depth: usize,
) {
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    let mut base = base.to_owned();
    if !pointer.is_empty()
        && let Some(id) = object.get("$id").and_then(Value::as_str)
    {
        if let Some(anchor) = id.strip_prefix('#') {
            // A draft-04..07 `$id` of the form `#name` is an anchor.
            out.push(Found::Anchor {
                pointer: pointer.to_owned(),
                uri: format!("{base}#{anchor}"),
            });
        } else if let Some(uri) = resolve_uri(&base, id) {
            out.push(Found::Resource {
                pointer: pointer.to_owned(),
                uri: uri.clone(),
            });
            base = uri;
        }
    }
    for key in ["$anchor", "$dynamicAnchor"] {
        if let Some(Value::String(anchor)) = object.get(key) {
            out.push(Found::Anchor {
                pointer: pointer.to_owned(),
                uri: format!("{base}#{anchor}"),
            });
        }
    }
    subschemas(object, pointer, |sub, at| {
        collect_resources(sub, &at, &base, out, depth + 1);
    });
}
