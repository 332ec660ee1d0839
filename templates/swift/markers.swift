extension {{ owner }} {
{{ docs }}  public enum {{ name }} {
{%- for m in markers %}
{%- if !loop.first %}
{% endif %}
{{ m.docs }}    public enum {{ m.name }}: {{ m.protocol }} {
      public typealias Payload = {{ m.payload }}
{%- if let Some(reply) = m.reply %}
      public typealias Reply = {{ reply }}
{%- endif %}
      public static let tag = {{ m.tag }}
    }
{%- endfor %}
  }
}
