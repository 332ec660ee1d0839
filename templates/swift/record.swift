{{ docs }}{{ header }}
{%- for p in properties %}
{{ p }}
{%- endfor %}
{%- for p in computed %}

{{ p }}
{%- endfor %}

{{ init }}
{%- for n in nested %}

{{ n }}
{%- endfor %}
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
}
