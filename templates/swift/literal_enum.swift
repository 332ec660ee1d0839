{{ docs }}{{ header }}
{%- for c in cases %}
{{ c }}
{%- endfor %}

  /// The value on the wire.
  public var value: JSONValue {
    switch self {
{%- for arm in value_arms %}
{{ arm }}
{%- endfor %}
    }
  }

  public init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    switch value {
{%- for arm in decode_arms %}
{{ arm }}
{%- endfor %}
    default:
      throw DecodingError.unknownValue(value, of: {{ name_literal }}, in: decoder)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}
