{{ view.doc|module_doc(source) }}

{% for line in view.imports -%}
{% if !loop.first %}

{% endif -%}
{{ line|safe }}{#- raw: an import statement of identifiers, laid out by module.rs #}
{%- endfor -%}
{%- for decl in view.decls %}
{% if !loop.first || decl.is_class() %}
{% endif %}
{% match decl -%}
{%- when Decl::Class(class) -%}
{{ class.head_line|safe }}{#- raw: `class Name(bases):` of identifiers, laid out by layout::class_head #}
{%- if let Some(doc) = class.doc %}
{{ doc|safe }}{#- raw: a docstring made by layout::docstring (quotes, backslashes and control characters escaped) #}
{%- endif %}
{%- if class.is_empty() %}
{%- if class.doc.is_none() %}
    pass
{%- endif %}
{%- else %}
{%- if class.doc.is_some() %}
{% endif %}
{%- for line in class.head %}
{{ line|safe }}{#- raw: a class-level assignment laid out by layout::assignment; text only in string literals #}
{%- endfor %}
{%- if !class.head.is_empty() && !class.fields.is_empty() %}
{% endif %}
{%- for field in class.fields %}
{{ field.line|safe }}{#- raw: a field laid out by layout::assignment; schema text only in string literals #}
{%- if let Some(doc) = field.doc %}
{{ doc|safe }}{#- raw: a docstring made by layout::docstring #}
{%- if !loop.last %}
{% endif %}
{%- endif %}
{%- endfor %}
{%- if let Some(check) = class.names_check %}

    @model_validator(mode="before")
    @classmethod
{{ check.head|safe }}{#- raw: a `def` line of identifiers laid out by layout::def_head #}
{%- for call in check.calls %}
{{ call|safe }}{#- raw: a runtime call laid out by module.rs; text only in string literals #}
{%- endfor %}
{%- endif %}
{%- if let Some(check) = class.rules_check %}

    @model_validator(mode="after")
{{ check.head|safe }}{#- raw: a `def` line of identifiers laid out by layout::def_head #}
{%- for call in check.calls %}
{{ call|safe }}{#- raw: a runtime call laid out by module.rs; text only in string literals #}
{%- endfor %}
        return self
{%- endif %}
{%- if let Some(reply) = class.reply %}

    @staticmethod
{{ reply.head|safe }}{#- raw: a `def` line of identifiers and type expressions laid out by layout::def_head #}
        """Decodes the data of this request's reply; raises `DecodeError`."""
{{ reply.body|safe }}{#- raw: a `return` of identifiers laid out by layout::return_statement #}
{%- endif %}
{%- endif %}
{%- when Decl::RecursiveAlias(alias) -%}
if TYPE_CHECKING:
{{ alias.checking|safe }}{#- raw: an alias laid out by layout::assignment; text only in string literals #}
{%- if let Some(doc) = alias.doc %}
{{ doc|safe }}{#- raw: a docstring made by layout::docstring #}
{%- endif %}
else:
{{ alias.runtime|safe }}{#- raw: a `TypeAliasType` call laid out by layout::assignment #}
{%- when Decl::Alias(alias) -%}
{{ alias.line|safe }}{#- raw: an alias laid out by layout::assignment; text only in string literals #}
{%- if let Some(doc) = alias.doc %}
{{ doc|safe }}{#- raw: a docstring made by layout::docstring #}
{%- endif %}
{%- endmatch %}
{%- endfor %}
{%- if !view.reply_codecs.is_empty() || !view.roots.is_empty() %}
{% if !view.decls.is_empty() %}
{% endif %}
{%- for codec in view.reply_codecs %}
{{ codec.line|safe }}{#- raw: a codec assignment of identifiers and type expressions #}
{%- endfor %}
{%- for root in view.roots %}
{{ root.line|safe }}{#- raw: a codec assignment of identifiers #}
{%- endfor %}
{%- endif %}
{%- for root in view.roots %}


{{ root.decode|safe }}{#- raw: a `def` line of identifiers laid out by layout::def_head #}
    """Decodes one `{{ root.ty }}` from its JSON text; raises `DecodeError`."""
{{ root.decode_body|safe }}{#- raw: a `return` of identifiers laid out by layout::return_statement #}


{{ root.encode|safe }}{#- raw: a `def` line of identifiers laid out by layout::def_head #}
    """The JSON text of one `{{ root.ty }}`: one line, without a newline."""
{{ root.encode_body|safe }}{#- raw: a `return` of identifiers laid out by layout::return_statement #}
{%- endfor %}

{% if !view.decls.is_empty() || !view.roots.is_empty() || !view.reply_codecs.is_empty() %}
{% endif %}{{ view.roots_line|safe }}{#- raw: a dict of string literals and identifiers #}
"""The codec of every root type, by its name in the schema."""
{{ view.replies_line|safe }}{#- raw: a dict of string literals and identifiers #}
"""The codec of each request's reply data, by the request's tag (or method)."""
{{ view.reply_data_line|safe }}{#- raw: a tuple of string literals #}
"""Where a reply message carries its data, as JSON Pointer segments."""
{{ view.protocol_line|safe }}{#- raw: a string literal #}
"""The protocol's id, when the schema is a symgen protocol."""
{{ view.vectors_line|safe }}{#- raw: a string literal #}
"""The directory of this schema's conformance vectors: the protocol id, else the schema
file's stem."""
