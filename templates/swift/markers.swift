extension {{ owner }} {
{{ docs }}  public enum {{ name }} {
{%- for m in markers %}
{%- if !loop.first %}
{% endif %}
{{ m.docs }}    public enum {{ m.name }}: {{ m.protocol }} {
{%- for line in m.lines %}
{{ line }}
{%- endfor %}
    }
{%- endfor %}
  }
}
