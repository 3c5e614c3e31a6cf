"""TF 1's command-line flags and `run` (``tf.compat.v1.flags``, ``tf.compat.v1.app``), as
TF 1 scripts use them: ``DEFINE_*`` declare flags, ``FLAGS.<name>`` reads them (parsing
``sys.argv`` on first use), and ``app.run()`` parses the command line, then calls
``main(argv)`` with the arguments left over and exits with its result.

>>> flags = tf.compat.v1.flags
>>> flags.DEFINE_integer("doc_batch", 32, "Batch size.")
>>> flags.FLAGS(["prog", "--doc_batch=64", "rest"])
['prog', 'rest']
>>> flags.FLAGS.doc_batch
64
"""
import sys

from eagerflow._src.backend.api_export import export


@export("compat.v1.flags.Error", "compat.v1.app.flags.Error")
class Error(Exception):
    """A flags error."""


@export("compat.v1.flags.UnrecognizedFlagError", "compat.v1.app.flags.UnrecognizedFlagError")
class UnrecognizedFlagError(Error):
    """A command-line flag no ``DEFINE_*`` declared."""

    def __init__(self, flagname, flagvalue=""):
        self.flagname, self.flagvalue = flagname, flagvalue
        super().__init__(f"Unknown command line flag '{flagname}'")


@export("compat.v1.flags.IllegalFlagValueError", "compat.v1.app.flags.IllegalFlagValueError")
class IllegalFlagValueError(Error):
    """A flag value that its type cannot take."""


@export("compat.v1.flags.DuplicateFlagError", "compat.v1.app.flags.DuplicateFlagError")
class DuplicateFlagError(Error):
    """A flag declared twice."""


class _Flag:
    def __init__(self, name, default, help, parse, boolean=False):  # noqa: A002
        self.name, self.help, self.parse, self.boolean = name, help, parse, boolean
        self.default = None if default is None else parse(default)
        self.value, self.present = self.default, 0

    def set(self, text):
        try:
            self.value = self.parse(text)
        except (TypeError, ValueError) as e:
            raise IllegalFlagValueError(f"flag --{self.name}={text}: {e}") from None
        self.present += 1


@export("compat.v1.flags.FlagValues", "compat.v1.app.flags.FlagValues")
class FlagValues:
    """The declared flags: their values as attributes; calling it parses an argv."""

    def __init__(self):
        self.__dict__["_flags"] = {}
        self.__dict__["_parsed"] = False

    def _define(self, flag):
        if flag.name in self._flags:
            raise DuplicateFlagError(f"The flag '{flag.name}' is defined twice.")
        self._flags[flag.name] = flag

    def __contains__(self, name):
        return name in self._flags

    def __iter__(self):
        return iter(self._flags)

    def __getattr__(self, name):
        flags = self.__dict__["_flags"]
        if name not in flags:
            raise AttributeError(name)
        if not self.__dict__["_parsed"]:  # (TF's FLAGS parses the command line when first read)
            self(sys.argv)
        return flags[name].value

    def __setattr__(self, name, value):
        if name in self._flags:
            self._flags[name].value = value
        else:
            self.__dict__[name] = value

    def __call__(self, argv, known_only=False):
        """Parses `argv` (its first item the program), setting the flags it names; returns
        the program and the arguments that are not flags (unknown flags too, if
        `known_only`)."""
        argv = list(argv)
        rest, args = argv[:1], argv[1:]
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                rest.extend(args[i - 1:])  # (kept, as absl's parser keeps it)
                break
            if not arg.startswith("-") or arg == "-":
                rest.append(arg)
                continue
            name, eq, value = arg.lstrip("-").partition("=")
            flag = self._flags.get(name)
            if flag is None and not eq and name.startswith("no") and \
                    getattr(self._flags.get(name[2:]), "boolean", False):
                self._flags[name[2:]].set("false")
                continue
            if flag is None:
                if known_only:
                    rest.append(arg)
                    continue
                raise UnrecognizedFlagError(name, value)
            if not eq:
                if flag.boolean:
                    value = "true"
                elif i < len(args):
                    value, i = args[i], i + 1
                else:
                    raise Error(f"Flag --{name} must have a value other than None.")
            flag.set(value)
        self.__dict__["_parsed"] = True
        return rest

    def is_parsed(self):
        return self._parsed

    def mark_as_parsed(self):
        self.__dict__["_parsed"] = True

    def flag_values_dict(self):
        """{name: value} of every flag."""
        return {name: flag.value for name, flag in self._flags.items()}

    def __getitem__(self, name):
        return self._flags[name]


FLAGS = FlagValues()
export("compat.v1.flags.FLAGS", "compat.v1.app.flags.FLAGS").export_constant(__name__, "FLAGS")


def _boolean(value):
    if isinstance(value, str):
        lowered = value.lower()
        if lowered in ("true", "t", "1", "yes", "y"):
            return True
        if lowered in ("false", "f", "0", "no", "n"):
            return False
        raise ValueError(f"Non-boolean argument to boolean flag: {value!r}")
    return bool(value)


def _list(value):
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


def _definer(parse, boolean=False):
    def define(name, default, help, flag_values=FLAGS, **_):  # noqa: A002 (absl's name)
        flag_values._define(_Flag(name, default, help, parse, boolean))
    return define


DEFINE_string = _definer(str)
DEFINE_integer = _definer(int)
DEFINE_float = _definer(float)
DEFINE_boolean = DEFINE_bool = _definer(_boolean, boolean=True)
DEFINE_list = _definer(_list)
for _name in ("DEFINE_string", "DEFINE_integer", "DEFINE_float", "DEFINE_boolean",
              "DEFINE_bool", "DEFINE_list"):
    export(f"compat.v1.flags.{_name}", f"compat.v1.app.flags.{_name}").export_constant(
        __name__, _name)
del _name


@export("compat.v1.flags.DEFINE_enum", "compat.v1.app.flags.DEFINE_enum")
def DEFINE_enum(name, default, enum_values, help, flag_values=FLAGS, **_):  # noqa: N802, A002
    """A string flag taking one of `enum_values`."""
    def parse(value):
        if value not in enum_values:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return value
    flag_values._define(_Flag(name, default, help, parse))


@export("compat.v1.app.run")
def run(main=None, argv=None):
    """Parses the command line (`argv`, else ``sys.argv``) into `FLAGS`, keeping the
    arguments it does not know, calls ``main(those arguments)`` (`main` defaults to the
    ``main`` of the ``__main__`` module) and exits with its result."""
    main = main or sys.modules["__main__"].main
    rest = FLAGS(sys.argv if argv is None else argv, known_only=True)
    sys.exit(main(rest))
