"""Hangs: agent input that would make ``step()`` run past every budget (data only)."""

from __future__ import annotations

from security.cases import Case, both

TITLE = "Hanging step()"

_FRESH = "a fresh Python interpreter was started"

CASES: tuple[Case, ...] = (
    Case(
        "hang-tool-call-spaces",
        "hang",
        "Raw assistant text `<tool_call>` followed by 10,000 spaces (and by 999,980), which "
        "made the old backtracking regular expression run for minutes (cubic time).",
        "Actions are read with substring searches and the JSON parser only (linear time, "
        "mle_gym/tools/parsing.py; MLAgentBench's text format uses possessive one-line "
        "patterns): the step answers at once with a specific error.",
        both("found <tool_call> without a closing </tool_call>", "answered at once: True"),
    ),
    Case(
        "hang-huge-action",
        "hang",
        "An action text of 1,000,001 characters; a JSON string of tool arguments as long; an "
        "`edit_file` that would replace each of 100,000 characters by 500 kB (50 GB).",
        "Text actions and JSON argument strings over `MAX_ACTION_CHARS` (1,000,000 "
        "characters) are refused unread; `edit_file` computes the size of the result first "
        "and refuses anything over the file size limit (64 MiB).",
        both(
            "the action is longer than 1,000,000 characters",
            "the JSON string of tool arguments is longer than 1,000,000 characters",
            "edit_file: the result would be 50,000,000,000 bytes",
        ),
    ),
    Case(
        "hang-interpreter-sigstop",
        "hang",
        "A `python` cell sends SIGSTOP to its own interpreter, which then never answers.",
        "Every read from and write to the interpreter has the call's deadline (its timeout "
        "plus 5 s): the stopped interpreter is killed and reported, and the next call starts "
        "a fresh one and says so.",
        both("interpreter died: did not stop within 5 s", "killed", _FRESH, "fresh-ok"),
    ),
    Case(
        "hang-interpreter-ignores-interrupt",
        "hang",
        "A `python` cell ignores SIGINT, blocks it in its signal mask and loops forever.",
        "The interrupt at the timeout has no effect, so 5 s later the host kills the "
        "interpreter, reports it, and the next call gets a fresh one.",
        both("interpreter died: did not stop within 5 s", "killed", _FRESH, "fresh-ok"),
    ),
    Case(
        "hang-interpreter-shadow-modules",
        "hang",
        "Before the first `python` call, plant `json.py`, `struct.py`, `ast.py`, "
        "`traceback.py`, `signal.py`, `sitecustomize.py`, `usercustomize.py` in /workspace and "
        "in the user site (`~/.local/...`, with a `.pth` file), each one hanging the importer.",
        "The interpreter starts in isolated mode (`python -I`): neither the working "
        "directory, nor the user site, nor `PYTHON*` variables reach the server's own "
        "imports; the working directory is put on `sys.path` for user code afterwards "
        "(`import mymodule` works, `.pth` files are not run).",
        both("planted modules imported: none", "mymodule: mine", "[ok"),
    ),
    Case(
        "hang-interpreter-garbage-replies",
        "hang",
        "A `python` cell writes to the interpreter's private reply pipe: a frame header "
        "announcing 4 GB, then (in a fresh interpreter) a forged reply frame.",
        "Replies are untrusted: a frame over 4 MiB, malformed JSON, a non-object or a "
        "reply to another request kills the interpreter with a 'protocol error' report; "
        "the host reads at most 4 MiB per reply.",
        both(
            "interpreter died: protocol error: a reply frame of 4,294,967,295 bytes",
            "protocol error: a reply to another request",
            _FRESH,
            "fresh-ok",
        ),
    ),
    Case(
        "hang-interpreter-stops-reading",
        "hang",
        "A `python` cell replaces the interpreter's request pipe by one nobody writes, so it "
        "never reads again; the next call sends a cell of 900,000 characters.",
        "Writes to the interpreter are non-blocking with the call's deadline; an interpreter "
        "that does not take its input, or then does not answer, is killed and reported.",
        both("interpreter died: it stopped reading its input", "killed", _FRESH, "fresh-ok"),
    ),
)
