"""Python values in a magic's text, as IPython puts them in `!` and `%` lines: the shell's
own `var_expand`, with `$name` (or `$obj.attr`) and `{expression}` (`$$`, `{{` and `}}`
stay literal, and a `$` inside single quotes is left alone).

Plain `var_expand` leaves the whole text untouched when one field fails; here each field
that cannot be evaluated stays as written, and one warning names them.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator, Sequence
from string import Formatter
from typing import Any

from IPython.utils.text import DollarFormatter

#: The conversion that marks a field written as `$name` (not a real conversion).
_DOLLAR = "$"


class UnresolvedWarning(UserWarning):
    """A `$name` or `{expression}` in a magic's text could not be evaluated."""


class _Lenient(DollarFormatter):
    """IPython's `DollarFormatter`, field by field: what fails stays as written."""

    def __init__(self) -> None:
        super().__init__()
        self.unresolved: list[str] = []

    def parse(self, fmt_string: str) -> Iterator[tuple[Any, Any, Any, Any]]:
        """`DollarFormatter.parse`, with `$name` fields marked by their conversion."""
        for literal, field, spec, conversion in Formatter.parse(self, fmt_string):
            text, start = "", 0
            for match in self._dollar_pattern_ignore_single_quote.finditer(literal):
                # from the last match: `.` in the pattern does not cross a line end
                before, name = literal[start : match.start(2) - 1], match.group(2)
                if name.startswith("$"):  # $$name -> $name
                    text += before + name
                elif name[0].isdigit():  # $9,000,000 and SQL's $1 are no variables
                    text += before + "$" + name
                else:
                    yield text + before, name, "", _DOLLAR
                    text = ""
                start = match.end()
            yield text + literal[start:], field, spec, conversion

    def vformat(self, format_string: str, args: Sequence[Any], kwargs: Any) -> str:
        out = []
        for literal, field, spec, conversion in self.parse(format_string):
            out.append(literal)
            if field is None:
                continue
            if conversion == _DOLLAR:
                written, conversion = f"${field}", None
            else:
                mark = f"!{conversion}" if conversion else ""
                written = "{" + field + mark + (f":{spec}" if spec else "") + "}"
            try:  # as FullEvalFormatter: the spec is part of the expression ({x[1:3]})
                value = eval(f"{field}:{spec}" if spec else field, dict(kwargs))
                out.append(self.format_field(self.convert_field(value, conversion), ""))
            except Exception:
                self.unresolved.append(written)
                out.append(written)
        return "".join(out)


def expand(shell: Any, text: str) -> str:
    """`text` with `$name` and `{expression}` evaluated in the user's namespace; a warning
    names what could not be (left as written), or says why nothing could."""
    formatter = _Lenient()
    try:
        list(formatter.parse(text))  # unbalanced braces fail here
    except ValueError as exc:
        _warn(f"nothing substituted: {exc} (write {{{{ and }}}} for literal braces)")
        return text
    # No frame is that deep: the user's namespace alone, not this function's locals.
    expanded = shell.var_expand(text, depth=sys.getrecursionlimit(), formatter=formatter)
    if formatter.unresolved:
        left = ", ".join(dict.fromkeys(formatter.unresolved))
        _warn(f"left as written (not defined or not valid Python): {left}")
    return expanded


def _warn(message: str) -> None:
    warnings.warn(message, UnresolvedWarning, stacklevel=3)
