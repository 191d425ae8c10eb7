"""A name resolver: the fork of a sandbox's supervisor that says whether each `torch.*` name a page uses exists.

Standard library only (torch is already imported by the supervisor it was forked from). Resolving a
name imports the modules it names (`torch.utils.model_dump.__main__` runs model_dump's command line), so
it happens here, in the sandbox, never in the checker. The supervisor sends one request,

    {"op": "names", "names": ["torch.nn.Linear", ...]}

and this process answers each name as soon as it is resolved, one JSON line each:

    {"name": "torch.nn.Linearr", "ok": false, "why": "'torch.nn' has no attribute 'Linearr'; did you mean ...?"}

so a name whose import ends or hangs the process is known (the first one not answered), and the supervisor
goes on with the rest in a fresh fork. Runtime registries are not checked below their namespace:
`torch.ops.<ns>` for namespaces other than aten/prims/quantized (snippets register their own custom ops),
and `torch.classes`.
"""

import ast
import contextlib
import difflib
import importlib
import importlib.util
import json
import os
import sys
import traceback

import snippet_proc  # type: ignore[import-not-found]  # a sibling: run by path in the sandbox

BUILTIN_OP_NAMESPACES = {"aten", "prims", "prim", "quantized", "_quantized"}
MAX_NAME = 300  # characters of a dotted name


def resolve(name: str) -> tuple[bool, str | None]:
    """(True, None) when `name` exists in the installed torch; else (False, explanation with a did-you-mean)."""
    parts = name.split(".")
    if parts[0] != "torch" or len(name) > MAX_NAME or not all(part.isidentifier() for part in parts):
        return False, f"'{name[:MAX_NAME]}' is not a torch name"
    obj = importlib.import_module("torch")
    for i in range(1, len(parts)):
        prefix = ".".join(parts[:i])
        if prefix == "torch.classes" or (
            prefix.startswith("torch.ops.") and i == 3 and parts[2] not in BUILTIN_OP_NAMESPACES
        ):
            return True, None
        part = parts[i]
        try:
            obj = getattr(obj, part)
            continue
        except AttributeError:
            pass
        except Exception as exc:  # a lazy attribute that fails to load
            return False, f"'{prefix}.{part}' failed to load: {type(exc).__name__}: {exc}"
        module = f"{prefix}.{part}"
        try:
            obj = importlib.import_module(module)
            continue
        except ModuleNotFoundError as exc:
            if exc.name and not (module == exc.name or module.startswith(exc.name + ".")):
                # The module is there but needs a package that is not installed (torch.utils.tensorboard
                # needs tensorboard): check the rest of the name in its source instead.
                return _resolve_statically(module, parts[i + 1 :], exc.name)
        except BaseException as exc:  # noqa: BLE001 - e.g. an ImportError, or SystemExit from a __main__
            return False, f"importing '{module}' failed: {type(exc).__name__}: {exc}"
        try:
            candidates = [n for n in dir(obj) if not n.startswith("__")]
        except Exception:
            candidates = []
        close = difflib.get_close_matches(part, candidates, n=1, cutoff=0.6)
        hint = f"; did you mean '{prefix}.{close[0]}'?" if close else ""
        return False, f"'{prefix}' has no attribute '{part}'{hint}"
    return True, None


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _resolve_statically(module: str, rest: list[str], missing: str) -> tuple[bool, str | None]:
    """Resolve the first name after `module` by reading the module's source (it cannot be imported here)."""
    if not rest:
        return True, None
    tree = None
    try:
        spec = importlib.util.find_spec(module)
        if spec and spec.origin:
            with open(spec.origin, encoding="utf-8") as source:
                tree = ast.parse(source.read())
    except (ImportError, OSError, SyntaxError, ValueError):
        tree = None
    if tree is None:
        return False, f"'{module}' needs '{missing}', which is not installed, and its source cannot be read"
    names = _top_level_names(tree)
    if rest[0] in names:
        return True, None  # deeper attributes cannot be checked without importing it
    close = difflib.get_close_matches(rest[0], sorted(names), n=1, cutoff=0.6)
    hint = f"; did you mean '{module}.{close[0]}'?" if close else ""
    return (
        False,
        f"'{module}' has no attribute '{rest[0]}' (read from its source: it needs '{missing}' to import){hint}",
    )


def resolve_names(requests_fd: int, replies_fd: int, output_fd: int) -> None:
    """The resolver's whole life (never returns): answer each name of the one request, a line each."""
    code = 0
    try:
        snippet_proc.enter_child(requests_fd, replies_fd, output_fd)
        with open(requests_fd, encoding="utf-8") as requests, open(replies_fd, "w", encoding="utf-8") as replies:
            request = json.loads(requests.readline())
            for name in request["names"]:
                try:
                    ok, why = resolve(name)
                except BaseException as exc:  # noqa: BLE001 - whatever the import raised
                    ok, why = False, f"resolving it raised {type(exc).__name__}: {exc}"
                replies.write(json.dumps({"name": name, "ok": ok, "why": None if ok else str(why)[:500]}) + "\n")
                replies.flush()
    except BaseException:  # noqa: BLE001 - the supervisor sees the tail of this
        traceback.print_exc()
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
        os._exit(code)
