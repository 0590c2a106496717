"""Reading the files a user passes on the command line: one door for all of them.

Profiles, scenarios, saved games and batch files all come through
:func:`read_regular_file` (and :func:`loads_json` for JSON), so that the same
limits hold everywhere: a path holding a NUL byte or longer than the system
allows is refused before the system sees it; only regular files are read (a
FIFO would block forever, ``/dev/zero`` never ends, a folder is not a file);
the size is capped; integers are capped in digits (Python refuses to convert
past 4300 digits, and a huge number is never a card game's). Messages name the
file and the reason, never the file's content: a scenario naming a private key
as its profile must not print the key.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
from typing import Any, TextIO

from rami_core.words.printable import visible
from rami_core.words.problems import Said

MAX_PATH_CHARS = 4096  # PATH_MAX on Linux
MAX_NAME_BYTES = 255  # NAME_MAX: one path component
MAX_INT_DIGITS = 40  # far above any count, seed or score a game needs
MAX_JSON_DEPTH = 200


class FileRefused(Exception):
    """A file that cannot be read as user input; ``reason`` says why, without its content."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def short(value: Any, limit: int = 40) -> str:
    """A value as shown in a message: its repr, cut to ``limit`` characters.

    Messages quote the offending token, never more: a long value is cut, and
    control characters are shown escaped (repr does that)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cut(text: str, limit: int = 200) -> str:
    """A message (an exception's, a plugin's) on one line, control characters escaped, cut to ``limit``."""
    line = visible(" ".join(str(text).split()))
    return line if len(line) <= limit else line[: limit - 3] + "..."


def path_problem(path: str | os.PathLike[str]) -> Said | None:
    """Why a path cannot name a file, or None: a NUL byte, or longer than the system allows."""
    try:
        text = os.fspath(path)
    except TypeError:
        return Said("path_not_path")
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\0" in text:
        return Said("path_nul")
    if len(text) > MAX_PATH_CHARS:
        return Said("path_too_long", limit=MAX_PATH_CHARS)
    try:
        parts = os.fsencode(text).split(b"/")
    except UnicodeError:
        return Said("path_not_text")
    if any(len(part) > MAX_NAME_BYTES for part in parts):
        return Said("path_name_too_long", limit=MAX_NAME_BYTES)
    return None


def write_text_safely(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that nothing but ``path`` itself can change.

    The text goes to a temporary file of a unique name created beside the
    target (``O_CREAT | O_EXCL``: a planted file or symlink of that name is
    never followed nor removed), then is renamed over the target. A target
    that exists and is not a regular file (a symlink, a FIFO, a device, a
    folder) is refused with :class:`FileRefused`; OSError for the rest."""
    import tempfile

    target = os.fspath(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISLNK(st.st_mode):
            raise FileRefused(Said("is_symlink"))
        raise FileRefused(Said("is_folder" if stat.S_ISDIR(st.st_mode) else "not_regular_file"))
    folder, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name[:100]}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def open_append_safely(path: str | os.PathLike[str]) -> TextIO:
    """``path`` opened to append text, created if missing; :class:`FileRefused`
    for a target that is a symbolic link, a folder, a FIFO or a device (a
    FIFO would hang the writer, a link write elsewhere): opened without
    following a link nor blocking, then checked before a byte is written."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except IsADirectoryError:
        raise FileRefused(Said("is_folder")) from None
    except OSError as exc:
        if os.path.islink(path):
            raise FileRefused(Said("is_symlink")) from None
        raise FileRefused(Said("unreadable_file", error=_os_error(exc))) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise FileRefused(Said("not_regular_file"))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8")


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; :class:`FileRefused` otherwise.

    The file is opened without blocking (a FIFO with no writer would hang a
    plain open), then checked to be a regular file before a byte is read."""
    problem = path_problem(path)
    if problem is not None:
        raise FileRefused(problem)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileRefused(Said("no_such_file")) from None
    except NotADirectoryError:
        raise FileRefused(Said("no_such_file_part")) from None
    except IsADirectoryError:
        raise FileRefused(Said("is_folder")) from None
    except PermissionError:
        raise FileRefused(Said("permission_denied")) from None
    except (OSError, ValueError) as exc:
        raise FileRefused(Said("unreadable_file", error=_os_error(exc))) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused(Said("is_folder"))
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(Said("not_regular_file"))
        if info.st_size > limit:
            raise FileRefused(_too_large(limit))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused(Said("unreadable_file", error=_os_error(exc))) from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileRefused(_too_large(limit))
    return b"".join(chunks)


def _too_large(limit: int) -> Said:
    if limit and limit % (1 << 20) == 0:
        return Said("file_too_large_mib", limit=limit, mib=limit >> 20)
    return Said("file_too_large", limit=limit)


def _os_error(exc: BaseException) -> str:
    """An error of the system by its name (EIO), the same in every language."""
    number = getattr(exc, "errno", None)
    return errno.errorcode.get(number, type(exc).__name__) if isinstance(number, int) else type(exc).__name__


def decode_text(raw: bytes) -> str:
    """UTF-8 text (a byte-order mark allowed); :class:`FileRefused` for other bytes or a NUL."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileRefused(Said("not_utf8", byte=exc.start)) from None
    if "\0" in text:
        raise FileRefused(Said("file_nul_at", at=text.index(chr(0))))
    return text


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """A regular UTF-8 text file of at most ``limit`` bytes."""
    return decode_text(read_regular_file(path, limit))


def _bounded_int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise ValueError(Said("json_long_int", digits=len(digits), limit=MAX_INT_DIGITS))
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 reads as an infinity
        raise ValueError(Said("json_constant", name=short(text)))
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(Said("json_constant", name=name))


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different: ``{"a": 1, "a": 2}`` says two
    things and one reader would keep the first, another the last."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(Said("json_duplicate_key", key=short(key)))
        out[key] = value
    return out


def _depth(data: Any) -> int:
    """Nesting depth, iteratively (a deep document must not exhaust the stack here either)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def loads_json(text: str) -> Any:
    """JSON with integers capped in digits, no NaN or Infinity, no key twice in
    an object, nesting bounded.

    Raises ValueError (with a short reason) for anything else."""
    try:
        data = json.loads(
            text,
            parse_int=_bounded_int,
            parse_float=_finite_float,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as exc:
        # the json module's own phrase ("Expecting value"), quoted as it writes it
        raise ValueError(Said("json_bad", line=exc.lineno, detail=Said("text", text=exc.msg))) from None
    except RecursionError:
        raise ValueError(Said("json_too_deep")) from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise ValueError(Said("json_deeper", limit=MAX_JSON_DEPTH))
    return data
