{{ docs }}{{ header }}
{%- for c in cases %}
{{ c }}
{%- endfor %}
{%- if !tag_arms.is_empty() %}

  /// The tag on the wire.
  public var tag: {{ tag_type }} {
    switch self {
{%- for arm in tag_arms %}
{{ arm }}
{%- endfor %}
    }
  }
{%- endif %}
{%- if open %}

  /// Whether this is the `unknown` case (rule R4).
  public var isUnknown: Bool {
    if case .unknown = self { true } else { false }
  }
{%- endif %}
{%- for n in nested %}

{{ n }}
{%- endfor %}
{%- if codable %}
{%- if !coding_keys.is_empty() %}

  enum CodingKeys: String, CodingKey {
{%- for k in coding_keys %}
{{ k }}
{%- endfor %}
  }
{%- endif %}

  public init(from decoder: any Decoder) throws {
{{ decode }}  }

  public func encode(to encoder: any Encoder) throws {
{{ encode }}  }
{%- endif %}
}
