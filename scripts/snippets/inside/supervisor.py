"""The supervisor of a snippet sandbox: PID 1 of it, it imports torch once and forks a fresh process per unit.

Started by `scripts.snippets.running.channel` as `python supervisor.py` (by path, standard library only) as the
first process of a sandbox of its own (`sandbox.py`). It imports torch once, then answers one JSON request
per line on its stdin/stdout, which only the checker holds:

    {"op": "run", "id", "unit", "last", "timeout", "lang", "filename", "line", "code", "group", "examples"}
    {"op": "names", "names": [...], "timeout"}
    {"op": "warm"}   (prepare torch.compile once, before forking the units that use it)
    {"op": "exit"}

For each unit (one block, or the blocks of one `group`) it forks a fresh *runner* (`snippet_runner.py`)
from its clean, torch-imported state; for a names request, a *resolver* (`snippet_resolve.py`). Nothing a
page holds runs or is imported in the supervisor. The supervisor writes the reply the checker reads: the
child's own report, checked and bounded, plus what the supervisor measured itself: the time taken, the
processes the block left running (killed), a timeout, the child's peak address space, or its death with
the tail of what it wrote to stdout/stderr (read from a pipe, never from a file).

Why the examples cannot reach it (the sandbox threat model, README.md):
- the checker's channel is the supervisor's stdin/stdout; a child closes both before any snippet runs,
  and the supervisor is not dumpable (PR_SET_DUMPABLE 0), so /proc/1/fd, /proc/1/mem and ptrace are refused;
- as PID 1 of the sandbox's PID namespace it receives no signal from inside (it installs no handler), and
  `kill(-1, ...)` skips it; it may start a few processes more than a child may;
- when a unit ends, everything else in the namespace is killed, /tmp is emptied and SysV objects are
  removed (a child has an IPC namespace of its own where the kernel allows), so the next unit starts from
  the same state as the first: one block cannot forge, hang or starve the next;
- it dies with the checker: SIGKILL when bubblewrap's monitor goes (set after the sandbox's user is taken,
  `setpriv --pdeathsig`), and while a child runs it watches the checker's channel and ends the sandbox
  when it closes.
Snippets of one `group` share a runner (and a namespace) by design, so they can affect each other.
"""

import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path

if sys.path and sys.path[0] and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    # Run by path inside the sandbox, beside its sibling modules (not as the `scripts` package).
    import snippet_proc  # type: ignore[import-not-found]
    import snippet_resolve  # type: ignore[import-not-found]
    import snippet_runner  # type: ignore[import-not-found]

    sys.path.pop(0)  # the sandbox's own modules must not shadow anything a snippet imports

NAME_TIMEOUT = 60  # seconds one name may take to resolve (importing torch._dynamo takes a few)


def _checked_report(report, request: dict) -> dict | str:
    """The runner's report with only the fields and types the checker reads, bounded; or why it is not one."""
    if not isinstance(report, dict):
        return "its report is not an object"
    examples_out: list[dict] = []
    warnings_out: list[dict] = []
    checked: dict = {"error": None, "examples": examples_out, "warnings": warnings_out, "overflow": 0}
    error = report.get("error")
    if error is not None:
        if not (
            isinstance(error, dict) and isinstance(error.get("line"), int) and isinstance(error.get("message"), str)
        ):
            return "its report has a malformed error"
        checked["error"] = {"line": error["line"], "message": error["message"][:500]}
    examples = report.get("examples", [])
    if not isinstance(examples, list) or len(examples) > len(request.get("examples", [])):
        return "its report has more examples than the block"
    for result in examples:
        if not (
            isinstance(result, dict)
            and isinstance(result.get("got", ""), str)
            and isinstance(result.get("exc"), (str, type(None)))
        ):
            return "its report has a malformed example"
        examples_out.append(
            {
                "got": result.get("got", "")[: snippet_runner.MAX_OUTPUT + 1],
                "exc": result.get("exc"),
                "skipped": result.get("skipped") is True,
                "origin": result["origin"] if isinstance(result.get("origin"), str) else None,
            }
        )
    for warning in report.get("warnings", [])[:50] if isinstance(report.get("warnings"), list) else []:
        if (
            isinstance(warning, dict)
            and isinstance(warning.get("category"), str)
            and isinstance(warning.get("message"), str)
        ):
            warnings_out.append(
                {
                    "category": warning["category"][:100],
                    "deprecation": warning.get("deprecation") is True,
                    "message": warning["message"][:500],
                    "line": warning["line"] if isinstance(warning.get("line"), int) else None,
                }
            )
    overflow = report.get("overflow", 0)
    checked["overflow"] = overflow if isinstance(overflow, int) and overflow > 0 else 0
    return checked


class CheckerGone(Exception):
    """The checker's end of the channel closed while a child ran: the sandbox ends now."""


def _run_block(runner: snippet_proc.Child, request: dict, channel: int) -> tuple[dict, bool]:
    """(the reply for the checker, whether the runner must go) for one block."""
    started = time.monotonic()
    reply = {"id": request["id"]}
    runner.discard_pending_replies()
    if runner.send(request):
        line, failure = snippet_proc.await_line(runner, float(request["timeout"]), channel)
    else:
        line, failure = None, "died"
    reply["seconds"] = round(time.monotonic() - started, 3)
    reply["peak"] = snippet_proc.peak_address_space(runner.pid)
    if failure == "checker gone":
        raise CheckerGone
    if failure == "timeout":
        return {**reply, "timeout": True}, True
    if failure == "died":
        snippet_proc.drain_output(runner, 2.0)
        return {**reply, "died": runner.tail_text().strip() or snippet_proc.how_it_ended(runner.pid)}, True
    try:
        report = _checked_report(json.loads(line), request) if failure is None else failure
    except ValueError:
        report = "its report is not JSON"
    if isinstance(report, str):
        return {**reply, "died": f"{report} ({runner.tail_text().strip()[-300:] or 'no message'})"}, True
    reply.update(report)
    last = bool(request.get("last"))
    # Processes the block left behind are its fault; they go now (with the runner too, when the unit ends).
    reply["strays"] = (
        len(snippet_proc.live_processes({runner.pid})) if last else snippet_proc.kill_all_but({runner.pid})
    )
    return reply, last


def _resolve(request: dict, channel: int) -> dict:
    """Every name of a names request, resolved in forks: one that ends or hangs its fork is blamed alone."""
    names = [name for name in request.get("names", []) if isinstance(name, str)]
    limit = float(request.get("timeout", NAME_TIMEOUT))
    results: list[dict] = []
    while len(results) < len(names):
        pending = names[len(results) :]
        resolver = snippet_proc.Child(snippet_resolve.resolve_names)
        try:
            resolver.send({"op": "names", "names": pending})
            for name in pending:
                line, failure = snippet_proc.await_line(resolver, limit, channel)
                if failure == "checker gone":
                    raise CheckerGone
                answer = _checked_answer(line, name) if failure is None else None
                if answer is None:
                    if failure == "died":
                        snippet_proc.drain_output(resolver, 2.0)
                    how = "timed out" if failure == "timeout" else "ended the process that resolved it"
                    tail = resolver.tail_text().strip().split("\n")[-1][:200] or snippet_proc.how_it_ended(resolver.pid)
                    answer = {"name": name, "ok": False, "why": f"importing it {how} ({tail})"}
                    results.append(answer)
                    break
                results.append(answer)
        finally:
            snippet_proc.end_child(resolver)
    return {"op": "names", "results": results}


def _checked_answer(line: bytes | None, name: str) -> dict | None:
    if line is None:
        return None
    try:
        answer = json.loads(line)
    except (TypeError, ValueError):
        return None
    if not (isinstance(answer, dict) and answer.get("name") == name and isinstance(answer.get("ok"), bool)):
        return None
    why = answer.get("why")
    return {"name": name, "ok": answer["ok"], "why": why[:500] if isinstance(why, str) else None}


def _shield_supervisor() -> None:
    """No handler for any signal (PID 1 then gets none from inside its namespace) and not dumpable."""
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # the kernel drops an ignored signal: no handler either
    snippet_proc.set_dumpable(False)


def _supervise(proto_in, proto_out, worker) -> None:
    """Answer the checker's requests, one child at a time, until "exit" or the end of input."""
    channel = proto_in.fileno()
    runner, unit = None, None
    try:
        for line in proto_in:
            if not line.strip():
                continue
            request = json.loads(line)
            if request.get("op") not in ("run", "names", "warm"):
                break
            if runner is not None and (request["op"] != "run" or unit != request["unit"]):
                snippet_proc.end_child(runner)
                runner = None
            if request["op"] == "names":
                reply = _resolve(request, channel)
            elif request["op"] == "warm":
                reply = worker.warm()
            else:
                if runner is None:
                    runner = snippet_proc.Child(lambda *fds: snippet_runner.run_unit(worker, *fds))
                    unit = request["unit"]
                reply, done = _run_block(runner, request, channel)
                if done:
                    snippet_proc.end_child(runner)
                    runner = None
            proto_out.write(json.dumps(reply) + "\n")
            proto_out.flush()
    except CheckerGone:
        pass
    if runner is not None:
        snippet_proc.end_child(runner)


def main():
    snippet_proc.die_with_parent()
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # anything written to fd 1 by C code goes to stderr, never into the protocol
    sys.stdin = open(os.devnull, encoding="utf-8")
    # Its memory is shared by its forks: they set their own address-space limit.
    snippet_proc.set_limits(None, snippet_proc.MAX_PROCESSES + snippet_proc.SUPERVISOR_SPARE)
    worker = snippet_runner.Worker()
    hello = worker.start()
    _shield_supervisor()  # after torch's import, which could have installed handlers
    proto_out.write(json.dumps(hello) + "\n")
    proto_out.flush()
    if hello["error"]:
        return 1
    _supervise(proto_in, proto_out, worker)
    return 0


if __name__ == "__main__":
    sys.exit(main())
