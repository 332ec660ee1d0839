{{ header }}
{%- if commonjs %}

"use strict";
{%- endif %}
{%- for item in items %}

{{ item }}
{%- endfor %}

{{ exports }}
