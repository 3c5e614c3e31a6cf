"""Protocol buffer message classes built at run time from schemas written in `.proto` syntax.

Each schema is the text of one `.proto` file (package, messages, enums,
``repeated``, ``map<K, V>``, ``oneof``, nested messages); `build` turns it into a
``FileDescriptorProto`` in a pool of this project's own (so TF's classes, if
also loaded, never clash with ours) and returns the message and enum classes.
No ``protoc``, no generated modules: adding a message is adding its text.

>>> classes = build("demo.proto", "package demo; message Pair { int64 a = 1; string b = 2; }")
>>> classes["Pair"](a=1, b="x").SerializeToString()
b'\\x08\\x01\\x12\\x01x'
"""
import re

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import enum_type_wrapper

POOL = descriptor_pool.DescriptorPool()

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    "double": _F.TYPE_DOUBLE, "float": _F.TYPE_FLOAT, "int64": _F.TYPE_INT64,
    "uint64": _F.TYPE_UINT64, "int32": _F.TYPE_INT32, "fixed64": _F.TYPE_FIXED64,
    "fixed32": _F.TYPE_FIXED32, "bool": _F.TYPE_BOOL, "string": _F.TYPE_STRING,
    "bytes": _F.TYPE_BYTES, "uint32": _F.TYPE_UINT32, "sfixed32": _F.TYPE_SFIXED32,
    "sfixed64": _F.TYPE_SFIXED64, "sint32": _F.TYPE_SINT32, "sint64": _F.TYPE_SINT64,
}
_TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\s+|([A-Za-z_][\w.]*|-?\d+|\"[^\"]*\"|[{}=;<>,\[\]()])",
                    re.S)


def _tokens(text):
    return [m.group(1) for m in _TOKEN.finditer(text) if m.group(1)]


class _Parser:
    def __init__(self, text):
        self.toks, self.pos = _tokens(text), 0

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, expected=None):
        tok = self.toks[self.pos]
        if expected is not None and tok != expected:
            raise SyntaxError(f"expected {expected!r}, found {tok!r} (token {self.pos})")
        self.pos += 1
        return tok

    def file(self, name):
        fdp = descriptor_pb2.FileDescriptorProto(name=name, syntax="proto3")
        while self.peek() is not None:
            tok = self.take()
            if tok == "syntax":
                self.take("="), self.take(), self.take(";")
            elif tok == "package":
                fdp.package = self.take()
                self.take(";")
            elif tok == "import":
                fdp.dependency.append(self.take().strip('"'))
                self.take(";")
            elif tok == "option":
                while self.take() != ";":
                    pass
            elif tok == "message":
                self.message(fdp.message_type.add())
            elif tok == "enum":
                self.enum(fdp.enum_type.add())
            else:
                raise SyntaxError(f"unexpected {tok!r} in {name}")
        return fdp

    def enum(self, edp):
        edp.name = self.take()
        self.take("{")
        while self.peek() != "}":
            if self.peek() in ("option", "reserved"):
                while self.take() != ";":
                    pass
                continue
            value = edp.value.add(name=self.take())
            self.take("=")
            value.number = int(self.take())
            self.take(";")
        self.take("}")

    def message(self, mdp):
        mdp.name = self.take()
        self.take("{")
        while self.peek() != "}":
            tok = self.peek()
            if tok == "message":
                self.take()
                self.message(mdp.nested_type.add())
            elif tok == "enum":
                self.take()
                self.enum(mdp.enum_type.add())
            elif tok == "oneof":
                self.take()
                index = len(mdp.oneof_decl)
                mdp.oneof_decl.add(name=self.take())
                self.take("{")
                while self.peek() != "}":
                    self.field(mdp, oneof=index)
                self.take("}")
            elif tok in ("reserved", "option"):
                while self.take() != ";":
                    pass
            else:
                self.field(mdp)
        self.take("}")

    def field(self, mdp, oneof=None):
        label = _F.LABEL_OPTIONAL
        if self.peek() == "repeated":
            self.take()
            label = _F.LABEL_REPEATED
        type_name = self.take()
        if type_name == "map":  # map<K, V>: a repeated nested entry message
            self.take("<")
            key = self.take()
            self.take(",")
            value = self.take()
            self.take(">")
            name = self.take()
            entry = mdp.nested_type.add(name="".join(p.title() for p in name.split("_")) + "Entry")
            entry.options.map_entry = True
            self._set_type(entry.field.add(name="key", number=1, label=_F.LABEL_OPTIONAL), key)
            self._set_type(entry.field.add(name="value", number=2, label=_F.LABEL_OPTIONAL), value)
            label, type_name = _F.LABEL_REPEATED, entry.name
        else:
            name = self.take()
        self.take("=")
        fd = mdp.field.add(name=name, number=int(self.take()), label=label)
        self._set_type(fd, type_name)
        if self.peek() == "[":  # field options ([packed = false], [deprecated = true])
            while self.take() != "]":
                pass
        self.take(";")
        if oneof is not None:
            fd.oneof_index = oneof

    @staticmethod
    def _set_type(fd, type_name):
        if type_name in _SCALARS:
            fd.type = _SCALARS[type_name]
        else:  # resolved against the enclosing scopes by the pool; the type is fixed below
            fd.type_name = type_name


def _resolve(fdp, known):
    """Fills each message or enum field's kind and full name, and the file's dependencies
    (`known`: full name -> (kind, file) of the files built so far)."""
    scopes = []

    def walk(mdp, prefix):
        full = f"{prefix}.{mdp.name}"
        known[full] = "message", fdp.name
        for e in mdp.enum_type:
            known[f"{full}.{e.name}"] = "enum", fdp.name
        for n in mdp.nested_type:
            walk(n, full)
        scopes.append((mdp, full))

    pkg = "." + fdp.package if fdp.package else ""
    for e in fdp.enum_type:
        known[f"{pkg}.{e.name}"] = "enum", fdp.name
    for m in fdp.message_type:
        walk(m, pkg)
    for mdp, full in scopes:
        for fd in mdp.field:
            if not fd.type_name or fd.type_name.startswith("."):
                continue
            scope = full
            while True:
                candidate = f"{scope}.{fd.type_name}"
                if candidate in known:
                    break
                if not scope:
                    raise TypeError(f"unknown type {fd.type_name} in {full}")
                scope = scope.rpartition(".")[0]
            kind, where = known[candidate]
            fd.type_name = candidate
            fd.type = _F.TYPE_MESSAGE if kind == "message" else _F.TYPE_ENUM
            if where != fdp.name and where not in fdp.dependency:
                fdp.dependency.append(where)


_KNOWN = {}


def build(name, text):
    """Adds the `.proto` file `name` with contents `text` to the pool; returns its top-level
    messages and enums by name (enum classes are ``EnumTypeWrapper``s)."""
    fdp = _Parser(text).file(name)
    _resolve(fdp, _KNOWN)
    POOL.AddSerializedFile(fdp.SerializeToString())
    fd = POOL.FindFileByName(name)
    out = {}
    for m in fdp.message_type:
        out[m.name] = _message_class(fd.message_types_by_name[m.name])
    for e in fdp.enum_type:
        out[e.name] = enum_type_wrapper.EnumTypeWrapper(fd.enum_types_by_name[e.name])
    return out


def _message_class(descriptor):
    get = getattr(message_factory, "GetMessageClass", None)
    if get is not None:
        return get(descriptor)
    return message_factory.MessageFactory(POOL).GetPrototype(descriptor)  # protobuf < 4.21
