{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{{ header|safe }}{# raw: a declaration head rendered by layout::type_header from an identifier made by naming.rs #}
{%- for c in cases %}
{{ c|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
{%- if !tag_arms.is_empty() %}

  /// The tag on the wire.
  public var tag: {{ tag_type|safe }}{# raw: a Swift type name (String, Int, Bool) #} {
    switch self {
{%- for arm in tag_arms %}
{{ arm|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
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

{{ n|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
{%- if codable %}
{%- if !coding_keys.is_empty() %}

  enum CodingKeys: String, CodingKey {
{%- for k in coding_keys %}
{{ k|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
  }
{%- endif %}

  public init(from decoder: any Decoder) throws {
{{ decode|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}  }

  public func encode(to encoder: any Encoder) throws {
{{ encode|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}  }
{%- endif %}
}
