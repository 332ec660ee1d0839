extension {{ owner }} {
{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}  public enum {{ name }} {
{%- for m in markers %}
{%- if !loop.first %}
{% endif %}
{{ m.docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}    public enum {{ m.name }}: {{ m.protocol }} {
{%- for line in m.lines %}
{{ line|safe }}{# raw: declaration code rendered in Rust from names made by naming.rs, literals by layout::string_literal and docs by layout::doc_comment #}
{%- endfor %}
    }
{%- endfor %}
  }
}
