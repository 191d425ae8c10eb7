"""The "your machine" answer: for a reader's machine (machine_model.py: `Machine`, read from a URL query by
`parse_query`), whether each release installs and runs there (`release_fit`), which is the newest that does
(`machine_answer`), and the machine page's static tables (`machine_page`). Pure functions over the facts of
machine_facts.py; docs/assets/javascripts/machine/machine.js decides the same answers from the same facts, shipped as
JSON, and tests/test_machine_page.py holds the two to each other on a sweep of machines.

The rules, in the order they are applied to a release:
- before 1.0 there is no pip command; a platform with no build of the release says where its wheels are;
- a GPU build is looked for first: NVIDIA (a compute capability, or a driver without one) among the CUDA builds,
  PyPI's own first, then the index's: the CUDA of PyPI's Linux wheel first (the release's own choice, where PyPI
  has no CUDA build: Windows), then by CUDA version, newest first, experimental ones last (an index build of the
  same CUDA as PyPI's is PyPI's); AMD among the ROCm builds, Intel among the XPU builds; Apple (MPS) in PyPI's
  macOS arm64 build, with the macOS its release needs;
- a build serves the machine when it has a wheel for the machine's Python (any, if not given) whose glibc/macOS
  floor the machine meets, carries code for the GPU (NVIDIA's rule: a cubin for X.y runs on X.z, z >= y; PTX of
  an older architecture is compiled by the driver; verdicts.hardware.gpu_support) and the driver meets its CUDA's
  minimum; a fact that is not documented (an architecture list, an index build's Pythons, MPS's floor between
  two documented ones) makes it "maybe", never "runs";
- without a GPU build that serves, the CPU build (PyPI's where it is a CPU build, else the index's cpu build, else
  PyPI's) makes the release "cpu"; without any, "no".
"""

from __future__ import annotations

from scripts.verdicts.machine_facts import dotted_key, machine_releases, offered_capabilities
from scripts.verdicts.machine_model import (
    BuildCommand,
    Machine,
    MachineAnswer,
    MachineBuild,
    MachinePage,
    MachineRelease,
    MachineTables,
    Reason,
    ReleaseFit,
    TableRow,
)

# --- one build -------------------------------------------------------------------------------------------------


def reason(code: str, **params: str) -> Reason:
    return Reason(code, tuple(params.items()))


def label(build: MachineBuild) -> str:
    """How a build is named in a reason: "cu126", "rocm6.2", "PyPI cu130" (PyPI's own CUDA build), "PyPI"."""
    if build.source == "index":
        return build.tag
    return f"PyPI {build.cuda_tag}" if build.cuda_tag else "PyPI"


def python_span(pythons: list[str]) -> str:
    """ "3.10–3.14" of the regular Python versions among `pythons` (sorted), or the only one."""
    plain = sorted({p for p in pythons if not p.endswith("t")}, key=dotted_key)
    if not plain:
        return "–"
    return plain[0] if len(plain) == 1 else f"{plain[0]}–{plain[-1]}"


class Outcome:
    """What one build does for the machine: "runs", "maybe" or "fail", with its reasons and notes, the command and
    the Python versions it covers."""

    def __init__(self, state: str, reasons=(), notes=(), command: str | None = None, pythons=()):
        self.state, self.reasons, self.notes = state, list(reasons), list(notes)
        self.command, self.pythons = command, list(pythons)


def install(build: MachineBuild, m: Machine) -> Outcome:
    """Whether some command of the build installs on the machine's Python, glibc and macOS."""
    if not build.pythons_known:
        state, why = (
            ("maybe", [reason("python-unknown", python=m.python, tags=label(build))]) if m.python else ("runs", [])
        )
        return Outcome(state, why, command=build.commands[0].text)
    entries = [(c, p) for c in build.commands for p in c.pythons]
    hits = [(c, p) for c, p in entries if p.version == m.python] if m.python else entries
    if not hits:
        return Outcome(
            "fail", [reason("python", python=m.python or "", have=python_span([p.version for _, p in entries]))]
        )
    limit = m.glibc if m.os.startswith("linux") else m.macos if m.os.startswith("macos") else None
    floor_kind = "glibc" if m.os.startswith("linux") else "macos"
    fitting = [(c, p) for c, p in hits if limit is None or p.floor is None or dotted_key(p.floor) <= dotted_key(limit)]
    if not fitting:
        need = min((p.floor for _, p in hits if p.floor), key=dotted_key)
        return Outcome("fail", [reason(floor_kind, need=need)])
    command: BuildCommand = fitting[0][0]
    chosen = [p for c, p in fitting if c is command]
    notes = []
    floors = [p.floor for p in chosen if p.floor]
    if limit is None and floors:
        notes.append(reason(f"needs-{floor_kind}", need=min(floors, key=dotted_key)))
    refused = [p for p in chosen if p.refused and p.version == m.python]
    if refused:
        notes.append(reason("refused", python=m.python or "", patches=", ".join(refused[0].refused)))
    return Outcome("runs", notes=notes, command=command.text, pythons=[p.version for p in chosen])


def gpu_support(build: MachineBuild, capability: str) -> str | None:
    """NVIDIA's rule (verdicts.hardware.gpu_support on the build's lists): "cubin", "ptx" or None."""
    major, minor = dotted_key(capability)
    if any(dotted_key(a)[0] == major and dotted_key(a)[1] <= minor for a in build.archs or ()):
        return "cubin"
    if any(dotted_key(p) <= (major, minor) for p in build.ptx):
        return "ptx"
    return None


def sm(capability: str) -> str:
    return "sm_" + capability.replace(".", "")


def nvidia(build: MachineBuild, m: Machine) -> Outcome:
    """Whether a CUDA build runs on the machine's NVIDIA GPU and driver (its install aside)."""
    tags = label(build)
    out = Outcome("runs")
    if m.nvidia:
        gpu = m.gpu or ""
        if build.archs is None:
            out.state = "maybe"
            out.reasons.append(reason("archs-unknown", tags=tags))
        else:
            support = gpu_support(build, gpu)
            if support is None:
                return Outcome("fail", [reason("arch", sm=sm(gpu), tags=tags)])
            if support == "ptx":
                out.notes.append(reason("ptx", sm=sm(gpu), tags=tags))
    if build.driver is None:
        out.state = "maybe"
        out.reasons.append(reason("driver-unknown", tags=tags))
    elif m.driver is None:
        out.notes.append(reason("needs-driver", need=build.driver, family=build.driver_family or ""))
    elif dotted_key(m.driver) < dotted_key(build.driver):
        return Outcome("fail", [reason("driver", need=build.driver, family=build.driver_family or "", tags=tags)])
    if build.experimental:
        out.notes.append(reason("experimental", tags=tags))
    return out


def evaluate(build: MachineBuild, m: Machine, accelerated: bool) -> Outcome:
    """A build's install and, for a GPU build, its GPU: the worse of the two decides."""
    done = install(build, m)
    if done.state == "fail" or not accelerated:
        return done
    gpu = nvidia(build, m) if build.kind == "cuda" else Outcome("runs")
    if gpu.state == "fail":
        return gpu
    state = "maybe" if "maybe" in (done.state, gpu.state) else "runs"
    return Outcome(state, done.reasons + gpu.reasons, done.notes + gpu.notes, done.command, done.pythons)


def merge(reasons: list[Reason]) -> tuple[Reason, ...]:
    """Reasons in order, each once; two that differ only in the builds they name become one naming both."""
    out: list[Reason] = []
    for r in reasons:
        rest = tuple(p for p in r.params if p[0] != "tags")
        for i, seen in enumerate(out):
            if seen.code == r.code and tuple(p for p in seen.params if p[0] != "tags") == rest:
                old, new = seen.get("tags"), r.get("tags")
                if old is not None and new is not None and new not in old.split(", "):
                    out[i] = Reason(seen.code, tuple((k, f"{v}, {new}" if k == "tags" else v) for k, v in seen.params))
                break
        else:
            out.append(r)
    return tuple(out)


# --- one release -----------------------------------------------------------------------------------------------


def gpu_builds(builds: list[MachineBuild], m: Machine, default: str | None) -> list[MachineBuild]:
    """The builds that could use the machine's GPU, in the order they are tried (see the module docstring);
    `default`: the CUDA of PyPI's Linux x86_64 wheel, the release's own choice where PyPI has no CUDA build."""
    if m.nvidia or (m.gpu is None and m.driver):
        cuda = [b for b in builds if b.kind == "cuda"]
        pypi = [b for b in cuda if b.source == "pypi"]
        taken = {b.cuda_tag for b in pypi}
        index = [b for b in cuda if b.source == "index" and b.cuda_tag not in taken]
        index.sort(key=lambda b: dotted_key(b.version or "0"), reverse=True)
        index.sort(key=lambda b: (b.experimental, b.version != default))
        return pypi + index
    kind = {"rocm": "rocm", "xpu": "xpu"}.get(m.gpu or "")
    if kind is None:
        return []
    found = [b for b in builds if b.kind == kind]
    return sorted(found, key=lambda b: dotted_key(b.version or "0"), reverse=True)


def cpu_build(builds: list[MachineBuild], m: Machine) -> MachineBuild | None:
    """The build a machine without a usable GPU installs (see the module docstring); with no GPU named, PyPI's."""
    pypi = next((b for b in builds if b.source == "pypi"), None)
    cpu = next((b for b in builds if b.kind == "cpu" and b.source == "index" and b.commands[0].text), None)
    if m.gpu is None and not m.driver:
        return pypi or cpu
    if pypi and pypi.kind == "cpu":
        return pypi
    return cpu or pypi


def no_build(release: MachineRelease, m: Machine) -> Reason:
    where = next((n for n in release.no_wheel if n[0] == m.os), None)
    if where is None:
        return reason("platform", os=m.os, kind="never", release="")
    return reason("platform", os=m.os, kind=where[1], release=where[2] or "")


def mps(release: MachineRelease, m: Machine) -> Outcome:
    """Apple GPUs (MPS) of the release on the machine's Mac."""
    if m.os != "macos-arm64":
        return Outcome("fail", [reason("mps-arm64")])
    if release.mps is None:
        return Outcome("fail", [reason("mps-none", since=release.mps_since or "")])
    floor, since, later, later_release = release.mps
    if m.macos is None:
        if later:
            return Outcome(
                "runs", notes=[reason("needs-mps-raised", need=floor, next=later, since=later_release or "")]
            )
        return Outcome("runs", notes=[reason("needs-mps", need=floor)])
    if dotted_key(m.macos) < dotted_key(floor):
        return Outcome("fail", [reason("mps-macos", need=floor, since=since)])
    if later and dotted_key(m.macos) < dotted_key(later) and release.version != since:
        return Outcome("maybe", [reason("mps-unsure", need=floor, next=later, since=later_release or "")])
    return Outcome("runs")


def release_fit(release: MachineRelease, m: Machine) -> ReleaseFit:
    """One release on the machine (see the module docstring)."""
    later = bool(m.date and release.date > m.date)
    fit = _fit(release, m)
    notes = list(fit.notes)
    if m.date and not later and release.uploaded and release.uploaded > m.date and fit.command:
        notes.append(reason("patch-later", patch=release.patch or "", uploaded=release.uploaded))
    if release.provisional:
        notes.append(reason("provisional"))
    return ReleaseFit(fit.version, fit.status, fit.tag, fit.command, fit.pythons, fit.reasons, merge(notes), later)


def _fit(release: MachineRelease, m: Machine) -> ReleaseFit:
    v = release.version
    if not release.pip:
        return ReleaseFit(v, "no", reasons=(reason("no-pip"),))
    builds = [b for b in release.builds if b.platform == m.os]
    if not builds:
        return ReleaseFit(v, "no", reasons=(no_build(release, m),))
    reasons: list[Reason] = []
    maybe: tuple[MachineBuild, Outcome] | None = None
    if m.gpu == "mps":
        pypi = next((b for b in builds if b.source == "pypi"), None)
        done = install(pypi, m) if pypi else Outcome("fail", [no_build(release, m)])
        gpu = mps(release, m)
        if done.state == "runs" and gpu.state != "fail" and pypi:
            return _chosen(v, gpu.state, pypi, done, gpu.reasons, gpu.notes)
        reasons += gpu.reasons if done.state == "runs" else []
    else:
        candidates = gpu_builds(builds, m, release.default_cuda)
        if not candidates and wants_gpu(m):
            reasons.append(_no_gpu_build(release, m))
        for build in candidates:
            out = evaluate(build, m, accelerated=True)
            if out.state == "runs":
                return _chosen(v, "runs", build, out, reasons, out.notes)
            if out.state == "maybe" and maybe is None:
                maybe = (build, out)
            if out.state == "fail":
                reasons += out.reasons
        if maybe is not None:
            build, out = maybe
            return _chosen(v, "maybe", build, out, reasons + out.reasons, out.notes)
    fallback = cpu_build(builds, m)
    if fallback is None:
        return ReleaseFit(v, "no", reasons=merge(reasons or [no_build(release, m)]))
    done = install(fallback, m)
    if done.state == "fail":
        return ReleaseFit(v, "no", reasons=merge(done.reasons))
    status = ("cpu" if wants_gpu(m) else "runs") if done.state == "runs" else "maybe"
    return _chosen(v, status, fallback, done, reasons + done.reasons, done.notes)


def wants_gpu(m: Machine) -> bool:
    """Whether the machine has a GPU an answer should use (a driver alone says an NVIDIA one)."""
    return m.gpu not in (None, "none") or bool(m.driver)


def _no_gpu_build(release: MachineRelease, m: Machine) -> Reason:
    kind = "cuda" if m.nvidia or m.gpu is None else m.gpu or ""
    if kind == "xpu" and release.xpu_since and dotted_key(release.version) < dotted_key(release.xpu_since):
        return reason("xpu-before", since=release.xpu_since)
    return reason(f"{kind}-none", os=m.os)


def _chosen(version: str, status: str, build: MachineBuild, done: Outcome, reasons, notes) -> ReleaseFit:
    return ReleaseFit(
        version, status, label(build), done.command, tuple(done.pythons), merge(list(reasons)), merge(list(notes))
    )


# --- every release ---------------------------------------------------------------------------------------------


def machine_answer(releases: tuple[MachineRelease, ...], m: Machine) -> MachineAnswer:
    """Every release's fit (newest first) and the newest that runs; with a date, among those out that day."""
    fits = tuple(release_fit(r, m) for r in releases)
    current = [f for f in fits if not f.later]
    best_at = next((i for i, f in enumerate(current) if f.status == "runs"), len(current))
    newer = current[:best_at]
    return MachineAnswer(
        machine=m,
        fits=fits,
        best=current[best_at].version if best_at < len(current) else None,
        cpu_newer=next((f.version for f in newer if f.status == "cpu"), None),
        maybe_newer=next((f.version for f in newer if f.status == "maybe"), None),
        newest_then=current[0].version if m.date and current else None,
    )


# --- the page: its facts and the tables it shows without JavaScript --------------------------------------------

TABLE_PLATFORMS = {
    "gpus": ("linux-x86_64", "linux-aarch64", "windows"),
    "drivers": ("linux-x86_64", "windows"),
    "glibc": ("linux-x86_64", "linux-aarch64"),
    "macos": ("macos-arm64", "macos-x86_64"),
}


def _newest(releases: tuple[MachineRelease, ...], machine: Machine) -> ReleaseFit | None:
    answer = machine_answer(releases, machine)
    return next((f for f in answer.fits if f.version == answer.best), None)


def _floors(releases: tuple[MachineRelease, ...], platforms: tuple[str, ...]) -> list[str]:
    """The distinct glibc/macOS floors of the platforms' wheels, newest first."""
    found = {
        p.floor for r in releases for b in r.builds if b.platform in platforms for c in b.commands for p in c.pythons
    }
    return sorted((f for f in found if f), key=dotted_key, reverse=True)


def machine_tables(
    releases: tuple[MachineRelease, ...],
    capabilities: tuple[str, ...],
    drivers: tuple[tuple[str, str, str], ...],
    name_of,
) -> MachineTables:
    """The newest release that runs, per GPU (compute capability), per driver minimum (the oldest driver of each
    CUDA version's band), per glibc floor and per macOS floor of the wheels, on the platforms of TABLE_PLATFORMS;
    every cell decided by machine_answer. `name_of(capability)`: the generation's name, where the facts give it."""

    def row(label_: str, name: str | None, platforms: tuple[str, ...], **values: str) -> TableRow:
        return TableRow(label_, name, tuple((p, _newest(releases, Machine(os=p, **values))) for p in platforms))

    gpus = tuple(row(c, name_of(c), TABLE_PLATFORMS["gpus"], gpu=c) for c in reversed(capabilities))
    bands = [(family, linux, windows) for family, linux, windows in drivers]
    driver_rows = []
    for family, linux, windows in bands:
        cells = tuple(
            (p, _newest(releases, Machine(os=p, driver=windows if p == "windows" else linux)))
            for p in TABLE_PLATFORMS["drivers"]
        )
        driver_rows.append(TableRow(linux if linux == windows else f"{linux} / {windows}", family, cells))
    glibc = tuple(row(f, None, TABLE_PLATFORMS["glibc"], glibc=f) for f in _floors(releases, TABLE_PLATFORMS["glibc"]))
    macos = tuple(row(f, None, TABLE_PLATFORMS["macos"], macos=f) for f in _floors(releases, TABLE_PLATFORMS["macos"]))
    return MachineTables(gpus, tuple(driver_rows), glibc, macos)


def machine_page(catalog, verdicts, evidence: dict | None) -> MachinePage | None:
    """What the machine page shows (None without registry evidence: nothing to decide from)."""
    if evidence is None:
        return None
    releases = machine_releases(catalog, verdicts, evidence)
    hardware = catalog.hardware
    capabilities = offered_capabilities(hardware)
    drivers = tuple((d.cuda, d.linux, d.windows) for d in hardware.drivers) if hardware else ()

    def name_of(capability: str) -> str | None:
        found = hardware.generation(capability) if hardware else None
        return found.name if found else None

    return MachinePage(
        releases=releases,
        generations=tuple((g.name, g.capabilities) for g in hardware.generations) if hardware else (),
        capabilities=capabilities,
        drivers=drivers,
        pythons=tuple(
            sorted(
                {p.version for r in releases for b in r.builds for c in b.commands for p in c.pythons},
                key=dotted_key_python,
            )
        ),
        tables=machine_tables(releases, capabilities, drivers, name_of),
        conda=_conda(hardware),
    )


def dotted_key_python(version: str) -> tuple[int, int, bool]:
    """ "3.13t" after "3.13"."""
    major, minor = version.rstrip("t").split(".")
    return int(major), int(minor), version.endswith("t")


def _conda(hardware) -> tuple[str, str, tuple[str, str], str] | None:
    """The conda channel's last release, with its first source's names (zh, en) and link."""
    conda = hardware.conda if hardware else None
    if conda is None:
        return None
    source = next((hardware.sources[k] for k in conda.fact.sources if k in hardware.sources), None)
    if source is None:
        return conda.last, conda.channel, ("", ""), ""
    names = source.names()
    return conda.last, conda.channel, (names["zh"], names["en"]), source.url
