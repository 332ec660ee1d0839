{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{{ header|safe }}{# raw: a declaration head rendered by layout::type_header from an identifier made by naming.rs #}
{%- for p in properties %}
{{ p|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
{%- for p in computed %}

{{ p|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}

{{ init|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- for n in nested %}

{{ n|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
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
}
