{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{{ header|safe }}{# raw: a declaration head rendered by layout::type_header from an identifier made by naming.rs #}
{%- for c in cases %}
{{ c|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
{%- if !alias_arms.is_empty() %}

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try container.decode(String.self)
    switch value {
{%- for arm in alias_arms %}
{{ arm|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
    default:
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "unknown {{ name }} value \"\(value)\"")
    }
  }
{%- endif %}
}
