{{ docs }}{{ header }}
{%- for c in cases %}
{{ c }}
{%- endfor %}
{%- if !alias_arms.is_empty() %}

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try container.decode(String.self)
    switch value {
{%- for arm in alias_arms %}
{{ arm }}
{%- endfor %}
    default:
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "unknown {{ name }} value \"\(value)\"")
    }
  }
{%- endif %}
}
