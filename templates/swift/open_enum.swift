{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{{ header|safe }}{# raw: a declaration head rendered by layout::type_header from an identifier made by naming.rs #}
  /// The value as received (a known one, or any other string).
  public let rawValue: String

  /// A value; any string is valid.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }
{%- for c in cases %}

{{ c|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}

  /// Every known value, in schema order.
  public static let allKnown: [{{ name }}] = [{{ all_known|safe }}{# raw: member references (.name) made by naming.rs #}]

  /// Whether the value is one of the known ones.
  public var isKnown: Bool { Self.allKnown.contains(self) }
{%- if !alias_arms.is_empty() %}

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try container.decode(String.self)
    switch value {
{%- for arm in alias_arms %}
{{ arm|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
    default: self.init(rawValue: value)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
{%- endif %}
}
