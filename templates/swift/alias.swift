{{ docs|safe }}{# raw: doc comment rendered by layout::doc_comment from a DocBlock; every line terminator starts a new /// line #}{% if too_long %}// swift-format-ignore
{% endif %}public typealias {{ name }} = {{ target|safe }}{# raw: a Swift type expression rendered by types.rs from identifiers made by naming.rs #}
