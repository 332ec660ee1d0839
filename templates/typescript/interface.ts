{{ doc }}export interface {{ name }}{{ extends }} {
{%- if members.is_empty() -%}
}
{%- else -%}
{%- for member in members %}
{{ member }}
{%- endfor %}
}
{%- endif -%}
