{{ docs }}{{ header }}
  /// The value as received (a known one, or any other string).
  public let rawValue: String

  /// A value; any string is valid.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }
{%- for c in cases %}

{{ c }}
{%- endfor %}

  /// Every known value, in schema order.
  public static let allKnown: [{{ name }}] = [{{ all_known }}]

  /// Whether the value is one of the known ones.
  public var isKnown: Bool { Self.allKnown.contains(self) }
{%- if !alias_arms.is_empty() %}

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try container.decode(String.self)
    switch value {
{%- for arm in alias_arms %}
{{ arm }}
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
