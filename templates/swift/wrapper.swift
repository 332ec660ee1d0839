{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{% if too_long %}// swift-format-ignore
{% endif %}public struct {{ name }}: Codable, Hashable, Sendable {
  /// The value: a type that contains `{{ name }}` itself, which a `typealias` cannot name.
  public let value: {{ target|safe }}{# raw: a Swift type expression rendered by types.rs from identifiers made by naming.rs #}

  /// Wraps a value.
  public init(_ value: {{ target|safe }}) {
    self.value = value
  }

  public init(from decoder: any Decoder) throws {
    self.value = try decoder.singleValueContainer().decode({{ target|safe }}.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.value)
  }
}
