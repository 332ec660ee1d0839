//! The rules `symgen breaking` reports, each with a stable id (never renamed or reused:
//! CI configurations and reviews refer to them) and the class it can have. Every rule is
//! documented with an example in docs/breaking.md, which a test keeps in step with
//! [`RULES`].

use std::fmt;

/// How bad a change is, from harmless to fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// An old peer tolerates it.
    Compatible,
    /// The wire is still compatible, but code written against the old generated package
    /// no longer compiles (a renamed type, a removed variant).
    Source,
    /// An old peer and a new peer can no longer talk.
    Wire,
}

impl Class {
    /// The name used in reports and on the command line: `compatible`, `source`, `wire`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Compatible => "compatible",
            Class::Source => "source",
            Class::Wire => "wire",
        }
    }

    /// `wire` when `breaks` (the change reaches a deployed peer), else `fallback`.
    pub fn wire_if(breaks: bool, fallback: Class) -> Class {
        if breaks { Class::Wire } else { fallback }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One rule: its id and what it detects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable id, e.g. `required-field-added`.
    pub id: &'static str,
    /// What the rule detects and when it breaks the wire, in a sentence.
    pub summary: &'static str,
}

macro_rules! rules {
    ($($name:ident = $id:literal: $summary:literal,)*) => {
        $(
            #[doc = $summary]
            pub const $name: Rule = Rule { id: $id, summary: $summary };
        )*
        /// Every rule, in the order docs/breaking.md lists them.
        pub const RULES: &[Rule] = &[$($name),*];
    };
}

rules! {
    SCHEMA_REMOVED = "schema-removed":
        "A schema file is gone: wire-breaking when any of its messages is sent or received.",
    SCHEMA_ADDED = "schema-added": "A new schema file: compatible.",
    ROOT_REMOVED = "root-removed":
        "A root message type is gone: wire-breaking when a deployed peer sends or receives it.",
    ROOT_ADDED = "root-added": "A new root message type: compatible.",
    TYPE_REMOVED = "type-removed":
        "A named type is gone (its wire effects are reported where it was used): source-breaking.",
    TYPE_RENAMED = "type-renamed":
        "A named type has a new name and the same place on the wire: source-breaking.",
    TYPE_ADDED = "type-added": "A new named type: compatible.",
    TYPE_CHANGED = "type-changed":
        "A value has a different kind (string to number, object to array, another literal): wire-breaking when it is sent or received.",
    REQUIRED_FIELD_ADDED = "required-field-added":
        "A new required field: wire-breaking when old senders write the object (they omit it), else source-breaking.",
    OPTIONAL_FIELD_ADDED = "optional-field-added":
        "A new optional field: compatible, unless old receivers refuse unknown keys (additionalProperties: false).",
    FIELD_REMOVED = "field-removed":
        "A field is gone: wire-breaking when old receivers require it or new receivers refuse the key old senders write, else source-breaking.",
    FIELD_RENAMED = "field-renamed":
        "A field has a new wire name and accepts the old one as an alias: wire-breaking when old receivers decode it (new senders write the new name).",
    FIELD_NOW_REQUIRED = "field-now-required":
        "An optional field became required: wire-breaking when old senders may omit it, else source-breaking.",
    FIELD_NOW_OPTIONAL = "field-now-optional":
        "A required field became optional: wire-breaking when old receivers require it, else source-breaking.",
    FIELD_ALIAS_REMOVED = "field-alias-removed":
        "An input alias of a field is gone: wire-breaking when old senders may still write it.",
    FIELD_ALIAS_ADDED = "field-alias-added": "A new input alias of a field: compatible.",
    DEFAULT_CHANGED = "default-changed":
        "The value a receiver assumes for an absent field changed: wire-breaking when the field is sent or received (an absent field means something else).",
    EXTRA_KEYS_REFUSED = "extra-keys-refused":
        "An object now refuses keys it does not know: wire-breaking when old senders write it.",
    EXTRA_KEYS_ALLOWED = "extra-keys-allowed": "An object now ignores keys it does not know: compatible.",
    CONSTRAINT_ADDED = "constraint-added":
        "A new cross-field rule (at least one of, required when): wire-breaking when old senders write the object.",
    CONSTRAINT_REMOVED = "constraint-removed":
        "A cross-field rule is gone: wire-breaking when old receivers decode the object.",
    NULL_REFUSED = "null-refused": "`null` is no longer accepted: wire-breaking when old senders write the value.",
    NULL_ALLOWED = "null-allowed": "`null` is now accepted: wire-breaking when old receivers decode the value.",
    RANGE_NARROWED = "range-narrowed":
        "Fewer values are accepted (a smaller integer range, integer instead of number, a specific type instead of any JSON): wire-breaking when old senders write the value.",
    RANGE_WIDENED = "range-widened":
        "More values are accepted (a larger integer range, number instead of integer, any JSON): wire-breaking when old receivers decode the value.",
    ENUM_VALUE_REMOVED = "enum-value-removed":
        "An enum value is gone: wire-breaking when old senders may write it, else source-breaking.",
    ENUM_VALUE_ADDED = "enum-value-added":
        "A new enum value: wire-breaking when old receivers decode the enum as a closed set; compatible when it is open (R4) or not received.",
    ENUM_VALUE_RENAMED = "enum-value-renamed":
        "An enum value is written differently now and the old spelling is still read: wire-breaking when old receivers decode the enum.",
    ENUM_ALIAS_REMOVED = "enum-alias-removed":
        "An input alias of an enum value is gone: wire-breaking when old senders may write it.",
    ENUM_ALIAS_ADDED = "enum-alias-added": "A new input alias of an enum value: compatible.",
    ENUM_CLOSED = "enum-closed":
        "An open enum (any other string kept) became closed: wire-breaking when old senders write it.",
    ENUM_OPENED = "enum-opened": "A closed enum became open: compatible.",
    VARIANT_REMOVED = "variant-removed":
        "A message type (union variant) is gone: wire-breaking when old peers send it, else source-breaking.",
    VARIANT_ADDED = "variant-added":
        "A new message type (union variant): wire-breaking when old receivers decode the union as a closed set; compatible when it is open (R4) or not received.",
    VARIANT_RENAMED = "variant-renamed":
        "A variant has a new name and the same tag: source-breaking.",
    TAG_RENAMED = "tag-renamed":
        "A variant's wire tag changed and the old one is accepted as an alias: wire-breaking when old receivers decode it.",
    TAG_ALIAS_REMOVED = "tag-alias-removed":
        "An input alias of a tag is gone: wire-breaking when old senders may write it.",
    TAG_ALIAS_ADDED = "tag-alias-added": "A new input alias of a tag: compatible.",
    UNION_TAGGING_CHANGED = "union-tagging-changed":
        "A union is told apart differently (tag key, content key, tagging style): wire-breaking when it is sent or received.",
    UNION_CLOSED = "union-closed":
        "An open union (R4) refuses unknown tags now: wire-breaking when old senders or relays write it.",
    UNION_OPENED = "union-opened": "A closed union keeps unknown tags now (R4): compatible.",
    REPLY_CHANGED = "reply-changed":
        "A request now expects a reply where it expected none, none where it expected one, or became a reply itself: wire-breaking when the request is sent or received.",
    DIRECTION_CHANGED = "direction-changed":
        "The parties that send or receive a message changed: compatible by itself (the other rules use the new parties).",
}

#[cfg(test)]
mod tests {
    use super::RULES;

    #[test]
    fn rule_ids_are_unique_kebab_case() {
        for (i, rule) in RULES.iter().enumerate() {
            assert!(
                rule.id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                rule.id
            );
            assert!(!RULES[..i].iter().any(|r| r.id == rule.id), "{}", rule.id);
        }
    }
}
