{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{{ header|safe }}{# raw: a declaration head rendered by layout::type_header from an identifier made by naming.rs #}
{%- for c in cases %}
{{ c|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}

  /// The value on the wire.
  public var value: JSONValue {
    switch self {
{%- for arm in value_arms %}
{{ arm|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
    }
  }

  public init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    switch value {
{%- for arm in decode_arms %}
{{ arm|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
    default:
{{ unknown_throw|safe }}{# raw: a call of a Swift string literal made by layout::string_literal (quotes, backslashes, control characters and line terminators escaped), laid out by layout::call #}
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}
