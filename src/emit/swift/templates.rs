//! The askama templates in `templates/swift/` and the values they render. Everything
//! layout-sensitive (doc comments, broken lines, statement bodies) is prepared in Rust;
//! the templates give the declarations their shape.

use askama::Template;

/// One generated source file: header, import, one declaration.
#[derive(Template)]
#[template(path = "swift/file.swift")]
pub struct FileTemplate<'a> {
    /// The schema file the declaration comes from.
    pub source: &'a str,
    /// The modules it imports (the runtime and the modules of shared types), sorted.
    pub imports: &'a [String],
    /// The declaration(s).
    pub body: &'a str,
}

/// A struct: a record, an envelope, or a record with a flattened tagged union.
#[derive(Template)]
#[template(path = "swift/record.swift")]
pub struct RecordTemplate {
    /// Doc comment lines (each ending in a newline), or empty.
    pub docs: String,
    /// The declaration line(s) up to the opening brace.
    pub header: String,
    /// Stored property declarations, each with its doc comment, indented.
    pub properties: Vec<String>,
    /// Computed property declarations (constants, `isUnknown`), indented.
    pub computed: Vec<String>,
    /// The memberwise initializer, indented, without a final newline.
    pub init: String,
    /// Nested declarations, indented, without a final newline.
    pub nested: Vec<String>,
    /// `CodingKeys` cases (`    case x = "y"`), indented; empty when there are none.
    pub coding_keys: Vec<String>,
    /// Body of `init(from:)`, each line ending in a newline.
    pub decode: String,
    /// Body of `encode(to:)`, each line ending in a newline.
    pub encode: String,
}

/// A closed string enum.
#[derive(Template)]
#[template(path = "swift/string_enum.swift")]
pub struct StringEnumTemplate {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The type name.
    pub name: String,
    /// The declaration line(s) up to the opening brace.
    pub header: String,
    /// Case declarations with their doc comments, indented.
    pub cases: Vec<String>,
    /// `case "a", "alias": self = .a` arms when some value has input aliases; else empty.
    pub alias_arms: Vec<String>,
}

/// An open string enum: a `RawRepresentable` struct with a constant per known value.
#[derive(Template)]
#[template(path = "swift/open_enum.swift")]
pub struct OpenEnumTemplate {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The type name.
    pub name: String,
    /// The declaration line(s) up to the opening brace.
    pub header: String,
    /// `public static let` declarations with their doc comments, indented.
    pub cases: Vec<String>,
    /// `.a, .b`: every constant.
    pub all_known: String,
    /// `case "a", "alias": self = .a` arms when some value has input aliases; else empty.
    pub alias_arms: Vec<String>,
}

/// An enum of literal values of mixed JSON types.
#[derive(Template)]
#[template(path = "swift/literal_enum.swift")]
pub struct LiteralEnumTemplate {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The declaration line(s) up to the opening brace.
    pub header: String,
    /// `throw DecodingError.unknownValue(…)` for a value no case has, laid out.
    pub unknown_throw: String,
    /// Case declarations with their doc comments, indented.
    pub cases: Vec<String>,
    /// `case .a: .string("a")` arms of `value`.
    pub value_arms: Vec<String>,
    /// `case .string("a"), .string("A"): self = .a` arms of the decoder, indented.
    pub decode_arms: Vec<String>,
}

/// A union as an enum with associated values.
#[derive(Template)]
#[template(path = "swift/union.swift")]
pub struct UnionTemplate {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The declaration line(s) up to the opening brace.
    pub header: String,
    /// Case declarations with their doc comments, indented.
    pub cases: Vec<String>,
    /// `case .a: "a"` arms of the `tag` property, indented; empty for untagged unions.
    pub tag_arms: Vec<String>,
    /// The Swift type of the tag.
    pub tag_type: String,
    /// Whether there is an `unknown` case.
    pub open: bool,
    /// Nested declarations (payload structs of inline variants), indented.
    pub nested: Vec<String>,
    /// Whether the enum decodes and encodes itself (not an envelope's body).
    pub codable: bool,
    /// `CodingKeys` cases, indented, when it uses them.
    pub coding_keys: Vec<String>,
    /// Body of `init(from:)`.
    pub decode: String,
    /// Body of `encode(to:)`.
    pub encode: String,
}

/// A type alias.
#[derive(Template)]
#[template(path = "swift/alias.swift")]
pub struct AliasTemplate {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The alias name.
    pub name: String,
    /// The aliased Swift type.
    pub target: String,
    /// Whether the line is longer than swift-format allows (then it is exempted).
    pub too_long: bool,
}

/// A type alias that reaches itself (`T = [T]`), as a struct wrapping its value.
#[derive(Template)]
#[template(path = "swift/wrapper.swift")]
pub struct WrapperTemplate {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The type's name.
    pub name: String,
    /// The wrapped Swift type.
    pub target: String,
    /// Whether a line is longer than swift-format allows (then it is exempted).
    pub too_long: bool,
}

/// One marker type of a union's message (rule R8).
pub struct Marker {
    /// Doc comment lines, or empty.
    pub docs: String,
    /// The marker type's name.
    pub name: String,
    /// `WireMessage` or `WireRequest`.
    pub protocol: &'static str,
    /// The member lines (`Payload`, `Reply`, `tag`), indented.
    pub lines: Vec<String>,
}

/// The marker types of a union, in an extension of the type that holds them.
#[derive(Template)]
#[template(path = "swift/markers.swift")]
pub struct MarkersTemplate {
    /// The type extended.
    pub owner: String,
    /// Doc comment lines of the namespace, or empty.
    pub docs: String,
    /// The namespace's name.
    pub name: String,
    /// The markers.
    pub markers: Vec<Marker>,
}

/// `Package.swift`.
#[derive(Template)]
#[template(path = "swift/Package.swift")]
pub struct PackageTemplate<'a> {
    /// The package name.
    pub package: &'a str,
    /// The test target.
    pub test_target: &'a str,
    /// The products (`.library(...),`, laid out), runtime first.
    pub products: Vec<String>,
    /// The library targets (`.target(...),`, laid out), runtime first.
    pub targets: Vec<String>,
    /// The test target's dependencies; no test target when empty.
    pub tests: Vec<String>,
}

/// The test registry of one protocol: its roots and typed replies.
#[derive(Template)]
#[template(path = "swift/Codecs.swift")]
pub struct CodecsTemplate {
    /// The schema file.
    pub source: String,
    /// The modules it imports: the protocol's and those of its shared types, sorted.
    pub imports: Vec<String>,
    /// The Swift constant's name.
    pub constant: String,
    /// The protocol id as a string literal.
    pub id: String,
    /// `"Root": RootCodec(Module.Root.self)` entries.
    pub roots: Vec<String>,
    /// `"tag": ReplyCodec(Module.X.Messages.Y.self)` entries.
    pub replies: Vec<String>,
    /// The reply data pointer as a Swift array literal, or `nil`.
    pub reply_data: String,
    /// Whether the module must have vectors (a protocol's).
    pub required: bool,
}

/// The XCTest case with one test per protocol.
#[derive(Template)]
#[template(path = "swift/VectorTests.swift")]
pub struct VectorTestsTemplate {
    /// One test per tested module.
    pub protocols: Vec<VectorTest>,
}

/// The vector test of one module.
pub struct VectorTest {
    /// The test method's suffix.
    pub suffix: String,
    /// The codecs constant.
    pub constant: String,
    /// The vector directory, a Swift string literal.
    pub id: String,
    /// Whether the module must have vectors (a protocol's).
    pub required: bool,
}

/// The runtime's fixed-length array types `Tuple1` ... `TupleN`.
#[derive(Template)]
#[template(path = "swift/runtime/Tuples.swift")]
pub struct TuplesTemplate {
    /// The arities to declare, each with its item indices.
    pub arities: Vec<(usize, Vec<usize>)>,
}

/// The vector round-trip harness.
#[derive(Template)]
#[template(path = "swift/tests/ConformanceVectors.swift")]
pub struct ConformanceVectorsTemplate<'a> {
    /// The modules it imports, sorted (Foundation, the runtime, XCTest).
    pub imports: &'a [&'a str],
    /// The vector directory relative to the package, as a string literal.
    pub vectors: &'a str,
}

/// Tests of the runtime itself.
#[derive(Template)]
#[template(path = "swift/tests/RuntimeTests.swift")]
pub struct RuntimeTestsTemplate<'a> {
    /// The modules it imports, sorted.
    pub imports: &'a [&'a str],
}
