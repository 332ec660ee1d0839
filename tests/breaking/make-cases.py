#!/usr/bin/env python3
"""Writes rules.json: for every rule of `symgen breaking`, a pair of schema versions
where the change breaks and one where direction makes it harmless, with the
classification a careful reviewer gives. Run it after editing a case:
`python3 tests/breaking/make-cases.py`."""
import json, os

CS = {"sent_by": ["client"], "received_by": ["server"]}          # client -> server
NOSEND = {"sent_by": [], "received_by": ["server"]}              # declared, nobody sends
NORECV = {"sent_by": ["client"], "received_by": []}              # nobody decodes
NOBODY = {"sent_by": [], "received_by": []}

S = {"type": "string"}

def obj(props, req=(), closed=False, **extra):
    o = {"type": "object", "properties": props, "required": list(req)}
    if closed:
        o["additionalProperties"] = False
    o.update(extra)
    return o

def msg(o):
    return {"Msg": o}

def alias(canonical, old, required=True):
    """A field `canonical` that also reads `old`, as `symgen schema` writes it."""
    props = {
        canonical: {"type": "string", "x-symgen-aliases": [old], **({"x-symgen-required": True} if required else {})},
        old: {"type": "string", "deprecated": True, "x-symgen-alias-of": canonical},
    }
    extra = {"allOf": [{"oneOf": [{"required": [canonical]}, {"required": [old]}]}]} if required else {}
    return obj(props, (), **extra)

def union(variants, open_=False, tag="type"):
    members = []
    for title, t, aliases, extra in variants:
        tag_schema = {"type": "string", "const": t} if not aliases else \
            {"type": "string", "enum": [t] + aliases, "x-symgen-aliases": aliases}
        m = {"title": title, "type": "object", "properties": {tag: tag_schema}, "required": [tag]}
        m.update(extra)
        members.append(m)
    if open_:
        alltags = [x for _, t, a, _ in variants for x in [t] + a]
        members.append({"title": "Unknown", "type": "object",
                        "properties": {tag: {"type": "string", "not": {"enum": alltags}}},
                        "required": [tag], "x-symgen-unknown": True})
    return {"oneOf": members, "x-symgen-union": {"tag": tag}}

def enum(values, aliases=None, open_=False):
    if open_:
        return {"type": "string", "anyOf": [{"enum": values}, {"x-symgen-unknown": True}]}
    e = {"type": "string", "enum": values + list((aliases or {}).keys())}
    if aliases:
        e["x-symgen-aliases"] = aliases
    return e

def level(values, **kw):
    return {"Msg": obj({"level": {"$ref": "#/$defs/Level"}}, ["level"]), "Level": enum(values, **kw)}

def reply(r):
    return union([("Ask", "ask", [], {"x-symgen-reply": r}), ("Bye", "bye", [], {"x-symgen-reply": None})])

cases = []
def case(rule, cls, why, direction, old, new, expect=None):
    cases.append({"rule": rule, "class": cls, "why": why, "direction": direction,
                  "old": old, "new": new, "expect": expect or [[rule, cls]]})

A = {"a": S}
case("required-field-added", "wire", "old clients omit `b`", CS,
     msg(obj(A, ["a"])), msg(obj({**A, "b": S}, ["a", "b"])))
case("required-field-added", "source", "nobody sends it; code that builds it must set `b`", NOSEND,
     msg(obj(A, ["a"])), msg(obj({**A, "b": S}, ["a", "b"])))
case("optional-field-added", "wire", "old servers refuse unknown keys", CS,
     msg(obj(A, ["a"], closed=True)), msg(obj({**A, "b": S}, ["a"], closed=True)))
case("optional-field-added", "compatible", "old servers ignore unknown keys", CS,
     msg(obj(A, ["a"])), msg(obj({**A, "b": S}, ["a"])))
case("field-removed", "wire", "old servers require `b`", CS,
     msg(obj({**A, "b": S}, ["a", "b"])), msg(obj(A, ["a"])))
case("field-removed", "source", "`b` was optional and unknown keys are ignored", CS,
     msg(obj({**A, "b": S}, ["a"])), msg(obj(A, ["a"])))
case("field-renamed", "wire", "old servers read only `b`", CS,
     msg(obj({"b": S}, ["b"])), msg(alias("bb", "b")))
case("field-renamed", "source", "nobody decodes it", NORECV,
     msg(obj({"b": S}, ["b"])), msg(alias("bb", "b")))
case("field-now-required", "wire", "old clients may omit `b`", CS,
     msg(obj({**A, "b": S}, ["a"])), msg(obj({**A, "b": S}, ["a", "b"])))
case("field-now-required", "source", "nobody sends it", NOSEND,
     msg(obj({**A, "b": S}, ["a"])), msg(obj({**A, "b": S}, ["a", "b"])))
case("field-now-optional", "wire", "old servers require `b`", CS,
     msg(obj({**A, "b": S}, ["a", "b"])), msg(obj({**A, "b": S}, ["a"])))
case("field-now-optional", "source", "nobody decodes it", NORECV,
     msg(obj({**A, "b": S}, ["a", "b"])), msg(obj({**A, "b": S}, ["a"])))
case("field-alias-removed", "wire", "old clients may still write `b`", CS,
     msg(alias("bb", "b")), msg(obj({"bb": S}, ["bb"])))
case("field-alias-removed", "compatible", "nobody sends it", NOSEND,
     msg(alias("bb", "b")), msg(obj({"bb": S}, ["bb"])))
case("field-alias-added", "compatible", "new servers read more", CS,
     msg(obj({"bb": S}, ["bb"])), msg(alias("bb", "b")))
N1 = lambda d: {"n": {"type": "integer", "format": "int32", "default": d}}
case("default-changed", "wire", "an absent `n` means 2 to new servers, 1 to old ones", CS,
     msg(obj(N1(1))), msg(obj(N1(2))))
case("default-changed", "compatible", "nobody sends or decodes it", NOBODY,
     msg(obj(N1(1))), msg(obj(N1(2))))
case("extra-keys-refused", "wire", "old clients may write other keys", CS,
     msg(obj(A, ["a"])), msg(obj(A, ["a"], closed=True)))
case("extra-keys-refused", "compatible", "nobody sends it", NOSEND,
     msg(obj(A, ["a"])), msg(obj(A, ["a"], closed=True)))
case("extra-keys-allowed", "compatible", "new servers accept more", CS,
     msg(obj(A, ["a"], closed=True)), msg(obj(A, ["a"])))
AB = {"a": S, "b": S}
ONE = {"allOf": [{"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}]}
case("constraint-added", "wire", "old clients may send neither", CS,
     msg(obj(AB)), msg(obj(AB, **ONE)))
case("constraint-added", "compatible", "nobody sends it", NOSEND,
     msg(obj(AB)), msg(obj(AB, **ONE)))
case("constraint-removed", "wire", "old servers need one of them", CS,
     msg(obj(AB, **ONE)), msg(obj(AB)))
case("constraint-removed", "compatible", "nobody decodes it", NORECV,
     msg(obj(AB, **ONE)), msg(obj(AB)))
NUL = {"a": {"type": ["string", "null"]}}
case("null-refused", "wire", "old clients may send null", CS,
     msg(obj(NUL, ["a"])), msg(obj(A, ["a"])))
case("null-refused", "compatible", "nobody sends it", NOSEND,
     msg(obj(NUL, ["a"])), msg(obj(A, ["a"])))
case("null-allowed", "wire", "old servers refuse null", CS,
     msg(obj(A, ["a"])), msg(obj(NUL, ["a"])))
case("null-allowed", "compatible", "nobody decodes it", NORECV,
     msg(obj(A, ["a"])), msg(obj(NUL, ["a"])))
R = lambda hi: {"n": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": hi}}
case("range-narrowed", "wire", "old clients may send 50", CS,
     msg(obj(R(100), ["n"])), msg(obj(R(10), ["n"])))
case("range-narrowed", "compatible", "nobody sends it", NOSEND,
     msg(obj(R(100), ["n"])), msg(obj(R(10), ["n"])))
case("range-widened", "wire", "old servers refuse 50", CS,
     msg(obj(R(10), ["n"])), msg(obj(R(100), ["n"])))
case("range-widened", "compatible", "nobody decodes it", NORECV,
     msg(obj(R(10), ["n"])), msg(obj(R(100), ["n"])))
case("type-changed", "wire", "a string is not an integer either way", CS,
     msg(obj(A, ["a"])), msg(obj({"a": {"type": "integer", "format": "int64"}}, ["a"])))
case("type-changed", "source", "nobody sends or decodes it; the generated type changes", NOBODY,
     msg(obj(A, ["a"])), msg(obj({"a": {"type": "integer", "format": "int64"}}, ["a"])))
case("enum-value-removed", "wire", "old clients may send \"c\"", CS,
     level(["a", "b", "c"]), level(["a", "b"]))
case("enum-value-removed", "source", "nobody sends it; the generated case is gone", NOSEND,
     level(["a", "b", "c"]), level(["a", "b"]))
case("enum-value-added", "wire", "old servers decode a closed set", CS,
     level(["a", "b"]), level(["a", "b", "c"]))
case("enum-value-added", "compatible", "old servers keep unknown strings (open enum)", CS,
     level(["a", "b"], open_=True), level(["a", "b", "c"], open_=True))
case("enum-value-renamed", "wire", "old servers know only \"A\"", CS,
     level(["A", "b"]), level(["a", "b"], aliases={"A": "a"}))
case("enum-value-renamed", "source", "nobody decodes it; the generated case has a new name", NORECV,
     level(["A", "b"]), level(["a", "b"], aliases={"A": "a"}))
case("constraint-added", "compatible", "old clients always wrote `a`, which satisfies the rule", CS,
     msg(obj(AB, ["a"])), msg(obj(AB, ["a"], **ONE)))
case("enum-alias-removed", "wire", "old clients may send \"A\"", CS,
     level(["a", "b"], aliases={"A": "a"}), level(["a", "b"]))
case("enum-alias-removed", "compatible", "nobody sends it", NOSEND,
     level(["a", "b"], aliases={"A": "a"}), level(["a", "b"]))
case("enum-alias-added", "compatible", "new servers read more", CS,
     level(["a", "b"]), level(["a", "b"], aliases={"A": "a"}))
case("enum-closed", "wire", "old clients may send other strings", CS,
     level(["a", "b"], open_=True), level(["a", "b"]))
case("enum-closed", "compatible", "nobody sends it", NOSEND,
     level(["a", "b"], open_=True), level(["a", "b"]))
case("enum-opened", "compatible", "new servers accept more", CS,
     level(["a", "b"]), level(["a", "b"], open_=True))
V = lambda *vs: [(t.title(), t, [], {}) for t in vs]
case("variant-removed", "wire", "old clients still send \"b\"", CS,
     msg(union(V("a", "b", "c"))), msg(union(V("a", "b"))))
case("variant-removed", "source", "nobody sends it; the generated variant is gone", NOSEND,
     msg(union(V("a", "b", "c"))), msg(union(V("a", "b"))))
case("variant-added", "wire", "old servers decode a closed set", CS,
     msg(union(V("a", "b"))), msg(union(V("a", "b", "c"))))
case("variant-added", "compatible", "old servers keep unknown tags (R4)", CS,
     msg(union(V("a", "b"), open_=True)), msg(union(V("a", "b", "c"), open_=True)))
case("variant-renamed", "source", "the tag is the same on the wire", CS,
     msg(union([("A", "a", [], {}), ("B", "b", [], {})])), msg(union([("First", "a", [], {}), ("B", "b", [], {})])))
case("tag-renamed", "wire", "old servers do not know \"aa\"", CS,
     msg(union([("A", "a", [], {}), ("B", "b", [], {})])), msg(union([("A", "aa", ["a"], {}), ("B", "b", [], {})])))
case("tag-renamed", "source", "nobody decodes it", NORECV,
     msg(union([("A", "a", [], {}), ("B", "b", [], {})])), msg(union([("A", "aa", ["a"], {}), ("B", "b", [], {})])))
case("tag-alias-removed", "wire", "old clients may send \"A\"", CS,
     msg(union([("A", "a", ["A"], {}), ("B", "b", [], {})])), msg(union([("A", "a", [], {}), ("B", "b", [], {})])))
case("tag-alias-removed", "compatible", "nobody sends it", NOSEND,
     msg(union([("A", "a", ["A"], {}), ("B", "b", [], {})])), msg(union([("A", "a", [], {}), ("B", "b", [], {})])))
case("tag-alias-added", "compatible", "new servers read more", CS,
     msg(union([("A", "a", [], {}), ("B", "b", [], {})])), msg(union([("A", "a", ["A"], {}), ("B", "b", [], {})])))
case("union-tagging-changed", "wire", "the tag key moved", CS,
     msg(union(V("a", "b"))), msg(union(V("a", "b"), tag="kind")))
case("union-tagging-changed", "source", "nobody sends or decodes it", NOBODY,
     msg(union(V("a", "b"))), msg(union(V("a", "b"), tag="kind")))
case("union-closed", "wire", "old clients may relay unknown tags", CS,
     msg(union(V("a", "b"), open_=True)), msg(union(V("a", "b"))))
case("union-closed", "compatible", "nobody sends it", NOSEND,
     msg(union(V("a", "b"), open_=True)), msg(union(V("a", "b"))))
case("union-opened", "compatible", "new servers accept more", CS,
     msg(union(V("a", "b"))), msg(union(V("a", "b"), open_=True)))
ACK = {"Ack": obj({})}
case("reply-changed", "wire", "new clients wait for a reply old servers never send", CS,
     {**msg(reply(None)), **ACK}, {**msg(reply({"$ref": "#/$defs/Ack"})), **ACK})
case("reply-changed", "source", "nobody sends or answers it", NOBODY,
     {**msg(reply(None)), **ACK}, {**msg(reply({"$ref": "#/$defs/Ack"})), **ACK})
# A reply travels back: narrowing reply data breaks when the request's receivers answer.
DATA = lambda hi: {"Data": obj(R(hi), ["n"])}
case("range-narrowed", "wire", "reply data: old servers answer with n = 50", CS,
     {**msg(reply({"$ref": "#/$defs/Data"})), **DATA(100)},
     {**msg(reply({"$ref": "#/$defs/Data"})), **DATA(10)})
case("range-narrowed", "compatible", "reply data: nobody answers the request", NORECV,
     {**msg(reply({"$ref": "#/$defs/Data"})), **DATA(100)},
     {**msg(reply({"$ref": "#/$defs/Data"})), **DATA(10)})
case("direction-changed", "compatible", "who sends it is a fact, not a wire change", CS,
     msg(obj(A, ["a"])), msg(obj(A, ["a"])),
     expect=[["direction-changed", "compatible"]])
P = lambda name: {"Msg": obj({"p": {"$ref": f"#/$defs/{name}"}}, ["p"]), name: obj(A, ["a"])}
case("type-renamed", "source", "same shape on the wire, another name in code", CS, P("Foo"), P("Bar"))
case("type-removed", "source", "code that names `Spare` no longer compiles", CS,
     {**msg(obj(A, ["a"])), "Spare": obj(A)}, msg(obj(A, ["a"])))
case("type-added", "compatible", "nothing refers to it yet", CS,
     msg(obj(A, ["a"])), {**msg(obj(A, ["a"])), "Spare": obj(A)})
case("root-removed", "wire", "old clients still send `Other`", CS,
     {**msg(obj(A)), "Other": obj(A)}, msg(obj(A)))
case("root-removed", "source", "nobody sends or decodes `Other`", NOBODY,
     {**msg(obj(A)), "Other": obj(A)}, msg(obj(A)))
case("root-added", "compatible", "nothing sends it yet", CS,
     msg(obj(A)), {**msg(obj(A)), "Other": obj(A)})

# direction-changed: the new side declares another sender.
for c in cases:
    if c["rule"] == "direction-changed":
        c["new_direction"] = {"sent_by": ["client", "server"], "received_by": ["server"]}

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "rules.json"), "w") as f:
    json.dump({"cases": cases}, f, indent=1)
    f.write("\n")
print(len(cases), "cases")
