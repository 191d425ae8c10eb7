/* Reads the environment a reader pastes on the "your machine" page: the output of `pip list`, `pip freeze`,
 * `conda list` (table, --export or --explicit) or `python -m torch.utils.collect_env`, and says what it states:
 * the torch / torchvision / torchaudio installed, Python, OS and CPU, glibc, macOS, GPUs (with the compute
 * capability NVIDIA lists for each, machine/gpus.js, when that script is loaded first), NVIDIA driver, the CUDA
 * or ROCm torch was built with and whether torch saw a GPU. A pure function: no DOM, no network, no
 * dependencies; runs in a page, from file:// and under Node's vm.
 *
 * Pasted text is untrusted and may be anything: it is read line by line, at most MAX_LINES lines and the first
 * MAX_LINE characters of each, with anchored patterns whose only repetitions are of single character classes
 * (no nested or adjacent unbounded quantifiers), so the time taken grows with the length read and nothing else.
 * Input over MAX_CHARS is refused before it is read. It never throws and never guesses: what the text does not
 * state is null (a pip-installed "torch==2.2.2" does not say which CUDA it was built with; "+cu121" does).
 *
 * read(text) -> { ok: false, reason: "not-text" | "empty" | "too-large" | "unrecognized" }
 *             | { ok: true, format: "collect-env" | "pip-list" | "pip-freeze" | "conda-list",
 *                 packages: { torch, torchvision, torchaudio: { version, local } | null },
 *                 ambiguous: [names the text gives two different versions of, at the same authority],
 *                 python: "3.10" | "3.13t" | null, os: "linux-x86_64" | "linux-aarch64" | "macos-arm64" |
 *                 "macos-x86_64" | "windows" | null, glibc, macos, gpus: [{ name, cc }], driver, cuda_runtime,
 *                 torch_cuda_available: true | false | null, rocm }
 * `local` is the local version label without its "+" ("cu121", "cpu", "rocm6.1.3"), or a conda build string's
 * equivalent (pytorch channel "py3.9_cuda11.3_cudnn8.2.0_0" -> "cu113", conda-forge "cuda126_generic_..." ->
 * "cu126", "py39_cpu" -> "cpu"); a package whose text names no version (torch @ file:///build/pytorch) is
 * { version: null, local: null }. */
(function (root) {
  "use strict";

  var MAX_CHARS = 1048576;   // 1 MiB of text (UTF-16 code units, as the text box holds them)
  var MAX_LINES = 20000;     // a full `conda list` is a few hundred lines; collect_env under 200
  var MAX_LINE = 2000;       // longer lines are read up to here (a CPU flags line is about 1,500)
  var PACKAGES = ["torch", "torchvision", "torchaudio"];
  // Distribution names, as pip knows them and as conda does (the conda package of torch is "pytorch"; on PyPI
  // "pytorch" was never torch).
  var PIP_NAMES = { torch: "torch", torchvision: "torchvision", torchaudio: "torchaudio" };
  var CONDA_NAMES = { torch: "torch", pytorch: "torch", torchvision: "torchvision", torchaudio: "torchaudio" };
  // Priority of a package line: what torch itself reported, then pip's view of the environment, then conda's.
  var FROM_TORCH = 0;
  var FROM_PIP = 1;
  var FROM_CONDA = 2;
  var NOT_STATED = { "": true, "n/a": true, "none": true, "could not collect": true, "no cuda": true };
  var CONDA_SUBDIRS = {
    "linux-64": "linux-x86_64", "linux-aarch64": "linux-aarch64", "osx-arm64": "macos-arm64",
    "osx-64": "macos-x86_64", "win-64": "windows"
  };

  var RE_SPACES = /\s+/;
  var RE_NONSPACE = /\S/;
  var RE_VERSION = /^\d{1,4}(?:\.\d{1,9}){0,5}(?:\.?[A-Za-z][A-Za-z0-9.]{0,40})?$/;
  var RE_LOCAL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
  var RE_MAJOR_MINOR = /^(\d{1,3})\.(\d{1,3})/;
  var RE_DRIVER = /^\d{2,4}\.\d{1,3}(?:\.\d{1,3})?$/;
  var RE_GPU_LINE = /^GPU \d{1,3}: ?([^\n]{1,300})$/;
  var RE_UUID = / \(UUID: [A-Za-z0-9-]{1,80}\)$/;
  var RE_MACOS = /^mac ?os ?x? ?(\d{1,2})(?:\.(\d{1,2}))?/i;
  var RE_ARCH = /\((x86_64|aarch64|arm64)\)$/;
  var RE_PLATFORM_ARCH = /-(x86_64|aarch64)-with-/;
  var RE_PLATFORM_MACOS = /^macOS-(\d{1,2})\.(\d{1,2})[0-9.]{0,8}-(arm64|x86_64)-/;
  var RE_GLIBC = /^glibc-(\d{1,2}\.\d{1,3})/;
  var RE_WITH_GLIBC = /-with-glibc(\d{1,2}\.\d{1,3})/;
  var RE_FREE_THREADING = /free-threading build/;
  var RE_PYTHON_LINE = /^Python (\d\.\d{1,2})\.\d{1,3}/;
  var RE_PIP_LINE = /^\[pip3?\] ([A-Za-z0-9._-]{1,100})==([^\s]{1,100})$/;
  var RE_CONDA_PREFIX = /^\[conda\] /;
  var RE_PIP_HEADER = /^Package +Version(?: +[A-Za-z]{1,30}){0,3}$/;
  var RE_DASHES = /^-{3,200}(?: +-{3,200}){1,3}$/;
  var RE_PIP_ROW = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99} +\d[^\s]{0,99}(?: [^\n]{0,1900})?$/;
  var RE_FREEZE = /^([A-Za-z0-9][A-Za-z0-9._-]{0,99})(?:\[[A-Za-z0-9,._ -]{0,200}\])? ?(===?|@) ?([^\s;#]{1,1000})/;
  var RE_CONDA_HEADER = /^# (?:packages in environment at |Name +Version +Build|platform: )/;
  var RE_CONDA_PLATFORM = /^# platform: ([a-z0-9-]{1,20})$/;
  var RE_CONDA_ROW = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99} +[^\s]{1,100} +[^\s]{1,200}(?: +[^\s]{1,200})?$/;
  var RE_CONDA_EXPORT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}=[^\s=]{1,100}=[^\s=]{1,200}$/;
  var RE_CONDA_URL = /^https?:\/\/[^\s]{1,1000}\/([a-z0-9-]{1,20})\/([^\s/]{1,300})\.(?:conda|tar\.bz2)(?:#[0-9a-f]{0,64})?$/;
  var RE_BUILD_CUDA_DOTTED = /(?:^|_)cuda(\d{1,2})\.(\d)(?:\.\d{1,5}){0,2}(?:_|$)/;
  var RE_BUILD_CUDA = /(?:^|_)cuda(\d{1,2})(\d)(?:_|py|$)/;
  var RE_BUILD_CU = /(?:^|_)cu(\d{1,2})(\d)(?:_|$)/;
  var RE_BUILD_CPU = /(?:^|_)cpu(?:_|$)/;
  var RE_BUILD_ROCM = /(?:^|_)rocm(\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)(?:_|$)/;
  var RE_LOCAL_CU = /^cu(\d{1,2})(\d)$/;
  var RE_LOCAL_ROCM = /^rocm(\d{1,2}\.\d{1,2})/;
  var RE_FREE_THREADED_ABI = /cp3\d{1,2}t(?:_|$)/;
  var RE_WHEEL = /^[A-Za-z0-9_.]{1,100}-([^-\s]{1,100})(?:-\d[^-\s]{0,50})?-([a-z0-9_.]{1,50})-([a-z0-9_.]{1,50})-([A-Za-z0-9_.]{1,300})\.whl$/;
  var RE_CP_TAG = /^cp3(\d{1,2})$/;
  var RE_CP_ABI = /^cp3(\d{1,2})(t?)[dmu]{0,3}$/;
  var RE_PLAT_LINUX = /^(?:many|musl)?linux[0-9_]{0,20}_(x86_64|aarch64)$/;
  var RE_PLAT_MAC = /^macosx_\d{1,2}_\d{1,2}_(arm64|x86_64)$/;

  /* The text's lines, each cut to MAX_LINE characters and trimmed, at most MAX_LINES of them. */
  function linesOf(text) {
    var lines = [];
    var start = 0;
    while (start <= text.length && lines.length < MAX_LINES) {
      var end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      var line = text.slice(start, Math.min(end, start + MAX_LINE));
      lines.push(line.trim());
      start = end + 1;
    }
    return lines;
  }

  /* "1.12.1+cu116" -> { version: "1.12.1", local: "cu116" }; a value that is no version -> version null. */
  function splitVersion(value) {
    var plus = value.indexOf("+");
    var version = plus < 0 ? value : value.slice(0, plus);
    var local = plus < 0 ? null : value.slice(plus + 1);
    return {
      version: RE_VERSION.test(version) ? version : null,
      local: local !== null && RE_LOCAL.test(local) ? local : null
    };
  }

  /* What a conda build string says torch (or torchvision, torchaudio) was built for, as a local label. */
  function localOfBuild(build) {
    var m = RE_BUILD_CUDA_DOTTED.exec(build) || RE_BUILD_CUDA.exec(build) || RE_BUILD_CU.exec(build);
    if (m) return "cu" + m[1] + m[2];
    if (RE_BUILD_CPU.test(build)) return "cpu";
    m = RE_BUILD_ROCM.exec(build);
    return m ? "rocm" + m[1] : null;
  }

  /* "3.10" from a version that starts with major.minor, else null. */
  function majorMinor(value) {
    var m = RE_MAJOR_MINOR.exec(value);
    return m ? m[1] + "." + m[2] : null;
  }

  /* Whether a table has this key of its own (pasted words like "constructor" are no keys of ours). */
  function has(table, key) {
    return Object.prototype.hasOwnProperty.call(table, key);
  }

  function stated(value) {
    return !has(NOT_STATED, value.toLowerCase());
  }

  function newResult(format) {
    return {
      ok: true, format: format, packages: { torch: null, torchvision: null, torchaudio: null }, ambiguous: [],
      python: null, os: null, glibc: null, macos: null, gpus: [], driver: null, cuda_runtime: null,
      torch_cuda_available: null, rocm: null
    };
  }

  /* The package a distribution name is (torch, torchvision, torchaudio), or null for any other. */
  function packageOf(names, name) {
    var key = name.toLowerCase();
    return has(names, key) ? names[key] : null;
  }

  /* Package lines seen, by package, each { version, local, priority }; settled into result.packages at the end.
   * `parse` turns the line's version text into { version, local }: only lines of our three packages are parsed. */
  function addCandidate(seen, names, name, parse, priority) {
    var canonical = packageOf(names, name);
    if (!canonical) return;
    var entry = parse();
    entry.priority = priority;
    (seen[canonical] = seen[canonical] || []).push(entry);
  }

  /* Per package: the lines of the highest authority. Two versions there, or two local labels, make it
   * ambiguous (null, and named in result.ambiguous). A local label those lines lack is taken from a line of the
   * same version elsewhere: collect_env's "[conda] pytorch 2.2.2 py3.12_cuda12.1_cudnn8.9.2_0" completes
   * "PyTorch version: 2.2.2"; `conda list`'s "pytorch 2.2.2 py3.12_cuda12.1..." and "torch 2.2.2 pypi_0" agree. */
  function settle(result, seen) {
    PACKAGES.forEach(function (name) {
      var entries = seen[name];
      if (!entries) return;
      var best = FROM_CONDA;
      entries.forEach(function (e) { best = Math.min(best, e.priority); });
      var top = entries.filter(function (e) { return e.priority === best; });
      var versions = {};
      var locals = {};
      top.forEach(function (e) {
        versions[e.version] = true;
        if (e.local !== null) locals[e.local] = true;
      });
      if (Object.keys(versions).length > 1 || Object.keys(locals).length > 1) {
        result.ambiguous.push(name);
        return;
      }
      var chosen = { version: top[0].version, local: Object.keys(locals)[0] || null };
      for (var i = 0; chosen.local === null && chosen.version !== null && i < entries.length; i++) {
        if (entries[i].version === chosen.version && entries[i].local !== null) chosen.local = entries[i].local;
      }
      result.packages[name] = chosen;
    });
    var torch = result.packages.torch;
    var m = torch && torch.local ? RE_LOCAL_CU.exec(torch.local) : null;
    if (m && result.cuda_runtime === null) result.cuda_runtime = m[1] + "." + m[2];
    m = torch && torch.local ? RE_LOCAL_ROCM.exec(torch.local) : null;
    if (m && result.rocm === null) result.rocm = m[1];
  }

  /* A "Python 3.10.14" line (python -V, pasted above a list), in any format. */
  function readPythonLine(result, line) {
    var m = result.python === null ? RE_PYTHON_LINE.exec(line) : null;
    if (m) result.python = m[1] + (RE_FREE_THREADING.test(line) ? "t" : "");
  }

  /* A wheel file name pip installed from (pip freeze "name @ URL"): its version, and the Python and platform it
   * can only have been installed on (cp311-cp311-linux_x86_64: CPython 3.11 on Linux x86_64). */
  function readWheel(url, facts) {
    var file = url.split("#")[0].split("?")[0];
    file = file.slice(file.lastIndexOf("/") + 1).replace("%2B", "+").replace("%2b", "+");
    var m = RE_WHEEL.exec(file);
    if (!m) return { version: null, local: null };
    var python = RE_CP_TAG.exec(m[2]);
    var abi = RE_CP_ABI.exec(m[3]);
    if (python && abi && python[1] === abi[1]) facts.pythons["3." + python[1] + abi[2]] = true;
    // A wheel may carry several platform tags ("manylinux_2_17_x86_64.manylinux2014_x86_64"): each names it.
    m[4].split(".").forEach(function (tag) {
      var linux = RE_PLAT_LINUX.exec(tag);
      var mac = RE_PLAT_MAC.exec(tag);
      if (linux) facts.systems["linux-" + linux[1]] = true;
      else if (mac) facts.systems["macos-" + mac[1]] = true;
      else if (tag === "win_amd64") facts.systems.windows = true;
    });
    return splitVersion(m[1]);
  }

  /* One line of a `conda list` table, --export or --explicit: [name, version, build] or null. */
  function condaRow(line) {
    if (RE_CONDA_EXPORT.test(line)) return line.split("=");
    var url = RE_CONDA_URL.exec(line);
    if (url) {
      var parts = url[2].split("-");
      return parts.length < 3 ? null : [parts.slice(0, -2).join("-"), parts[parts.length - 2], parts[parts.length - 1]];
    }
    return RE_CONDA_ROW.test(line) ? line.split(RE_SPACES) : null;
  }

  function addCondaPackage(seen, row, priority) {
    addCandidate(seen, CONDA_NAMES, row[0], function () {
      var parsed = splitVersion(row[1]);
      if (parsed.local === null && row[2]) parsed.local = localOfBuild(row[2]);
      return parsed;
    }, priority);
  }

  function readOs(result, value) {
    var mac = RE_MACOS.exec(value);
    var arch = RE_ARCH.exec(value);
    if (value.toLowerCase().indexOf("windows") >= 0) {
      result.os = "windows";
    } else if (mac) {
      result.macos = mac[1] + (mac[2] !== undefined ? "." + mac[2] : "");
      if (arch) result.os = arch[1] === "aarch64" ? null : "macos-" + arch[1];
    } else if (arch && arch[1] !== "arm64" && stated(value)) {
      result.os = "linux-" + arch[1];
    }
  }

  function readPlatform(result, value) {
    var mac = RE_PLATFORM_MACOS.exec(value);
    var linux = RE_PLATFORM_ARCH.exec(value);
    var glibc = RE_WITH_GLIBC.exec(value);
    if (mac && result.os === null) result.os = "macos-" + mac[3];
    if (mac && result.macos === null) result.macos = mac[1] + "." + mac[2];
    if (linux && result.os === null && value.slice(0, 6) === "Linux-") result.os = "linux-" + linux[1];
    if (glibc && result.glibc === null) result.glibc = glibc[1];
  }

  function addGpu(result, name) {
    var gpus = root.TimelineGpus;
    name = name.replace(RE_UUID, "").trim();
    if (!name || !stated(name) || result.gpus.length >= 64) return;
    result.gpus.push({ name: name, cc: gpus && gpus.computeCapability ? gpus.computeCapability(name) : null });
  }

  // collect_env's "Key: value" lines, by lower-cased key.
  var COLLECT_KEYS = {
    "pytorch version": function (result, value, seen) {
      if (stated(value)) addCandidate(seen, PIP_NAMES, "torch", function () { return splitVersion(value); }, FROM_TORCH);
    },
    "cuda used to build pytorch": function (result, value) { result.cuda_runtime = majorMinor(value); },
    "rocm used to build pytorch": function (result, value) { result.rocm = majorMinor(value); },
    "os": readOs,
    "python version": function (result, value) {
      var version = majorMinor(value);
      result.python = version && RE_FREE_THREADING.test(value) ? version + "t" : version;
    },
    "python platform": readPlatform,
    "libc version": function (result, value) {
      var m = RE_GLIBC.exec(value);
      if (m) result.glibc = m[1];
    },
    "is cuda available": function (result, value) {
      var v = value.toLowerCase();
      result.torch_cuda_available = v === "true" || v === "yes" ? true : v === "false" || v === "no" ? false : null;
    },
    "nvidia driver version": function (result, value) {
      if (RE_DRIVER.test(value)) result.driver = value;
    },
    "gpu models and configuration": function (result, value) {
      var m = RE_GPU_LINE.exec(value);
      addGpu(result, m ? m[1] : value);
    }
  };
  // Keys only collect_env prints: two of them make a paste collect_env's.
  var COLLECT_SIGNS = ["pytorch version", "is debug build", "cuda used to build pytorch", "is cuda available",
    "gpu models and configuration", "nvidia driver version", "rocm used to build pytorch", "cudnn version"];

  function keyValue(line) {
    var colon = line.indexOf(":");
    if (colon < 1 || colon > 60) return null;
    return { key: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() };
  }

  function readCollectEnv(lines) {
    var result = newResult("collect-env");
    var seen = {};
    var inGpuList = false;
    lines.forEach(function (line) {
      var gpu = inGpuList ? RE_GPU_LINE.exec(line) : null;
      if (gpu) return addGpu(result, gpu[1]);
      inGpuList = false;
      var pip = RE_PIP_LINE.exec(line);
      if (pip) return addCandidate(seen, PIP_NAMES, pip[1], function () { return splitVersion(pip[2]); }, FROM_PIP);
      if (RE_CONDA_PREFIX.test(line)) {
        var row = condaRow(line.slice(8).trim());
        return row ? addCondaPackage(seen, row, FROM_CONDA) : undefined;
      }
      var kv = keyValue(line);
      var handle = kv && has(COLLECT_KEYS, kv.key) ? COLLECT_KEYS[kv.key] : null;
      if (handle) handle(result, kv.value, seen);
      inGpuList = handle === COLLECT_KEYS["gpu models and configuration"];
    });
    lines.forEach(function (line) { readPythonLine(result, line); });
    settle(result, seen);
    return result;
  }

  function readPipList(lines) {
    var result = newResult("pip-list");
    var seen = {};
    lines.forEach(function (line) {
      readPythonLine(result, line);
      if (RE_PIP_ROW.test(line)) {
        var columns = line.split(RE_SPACES);
        addCandidate(seen, PIP_NAMES, columns[0], function () { return splitVersion(columns[1]); }, FROM_PIP);
      }
    });
    settle(result, seen);
    return result;
  }

  function readPipFreeze(lines) {
    var result = newResult("pip-freeze");
    var seen = {};
    var facts = { pythons: {}, systems: {} };
    lines.forEach(function (line) {
      readPythonLine(result, line);
      var m = RE_FREEZE.exec(line);
      if (!m) return;
      // Every wheel pip installed tells the interpreter and platform, not only our three packages'.
      var wheel = m[2] === "@" ? readWheel(m[3], facts) : null;
      addCandidate(seen, PIP_NAMES, m[1], function () { return wheel || splitVersion(m[3]); }, FROM_PIP);
    });
    var pythons = Object.keys(facts.pythons);
    var systems = Object.keys(facts.systems);
    if (result.python === null && pythons.length === 1) result.python = pythons[0];
    if (systems.length === 1) result.os = systems[0];
    settle(result, seen);
    return result;
  }

  function readCondaList(lines) {
    var result = newResult("conda-list");
    var seen = {};
    var freeThreaded = false;
    lines.forEach(function (line) {
      var platform = RE_CONDA_PLATFORM.exec(line);
      if (platform && has(CONDA_SUBDIRS, platform[1])) result.os = CONDA_SUBDIRS[platform[1]];
      var row = line.charAt(0) === "#" ? null : condaRow(line);
      if (!row) return readPythonLine(result, line);
      var name = row[0].toLowerCase();
      if (name === "python") result.python = majorMinor(row[1]);
      if ((name === "python" || name === "python_abi") && RE_FREE_THREADED_ABI.test(row[2] || "")) freeThreaded = true;
      var explicit = RE_CONDA_URL.exec(line);
      if (explicit && has(CONDA_SUBDIRS, explicit[1]) && result.os === null) result.os = CONDA_SUBDIRS[explicit[1]];
      // A pypi row (pip's record) and a conda row name the same torch with equal authority here: if they
      // disagree, `conda list` cannot say which one Python imports.
      addCondaPackage(seen, row, FROM_CONDA);
    });
    if (result.python !== null && freeThreaded) result.python += "t";
    settle(result, seen);
    return result;
  }

  /* Which of the four the text is, from counts of the lines only that output prints; null for anything else. */
  function formatOf(lines) {
    var signs = {};
    var count = { content: 0, pipHeader: 0, dashes: 0, pipRows: 0, freeze: 0, condaHeader: 0, condaRows: 0, named: 0 };
    lines.forEach(function (line) {
      if (!line || line.slice(0, 3) === "```") return;
      var kv = keyValue(line);
      if (kv && COLLECT_SIGNS.indexOf(kv.key) >= 0) signs[kv.key] = true;
      if (RE_CONDA_HEADER.test(line)) count.condaHeader++;
      if (line.charAt(0) === "#" || line.charAt(0) === "$" || line.slice(0, 2) === "-e") return;
      count.content++;
      if (RE_PIP_HEADER.test(line)) count.pipHeader++;
      if (RE_DASHES.test(line)) count.dashes++;
      if (RE_FREEZE.test(line)) count.freeze++;
      var row = condaRow(line);
      if (row) count.condaRows++;
      else if (RE_PIP_ROW.test(line)) count.pipRows++;
      if ((row || RE_PIP_ROW.test(line)) && packageOf(CONDA_NAMES, line.split(RE_SPACES)[0])) count.named++;
    });
    if (Object.keys(signs).length >= 2) return "collect-env";
    if (count.pipHeader && count.dashes) return "pip-list";
    if (count.condaHeader && count.condaRows) return "conda-list";
    if (count.freeze && count.freeze * 2 >= count.content) return "pip-freeze";
    // Rows without their header (`conda list | grep torch`, `pip list | grep torch`) count when one names torch.
    if (count.named && count.condaRows * 2 >= count.content) return "conda-list";
    if (count.named && count.pipRows * 2 >= count.content) return "pip-list";
    return null;
  }

  var READERS = {
    "collect-env": readCollectEnv, "pip-list": readPipList, "pip-freeze": readPipFreeze, "conda-list": readCondaList
  };

  function read(text) {
    if (typeof text !== "string") return { ok: false, reason: "not-text" };
    if (text.length > MAX_CHARS) return { ok: false, reason: "too-large" };
    if (!RE_NONSPACE.test(text)) return { ok: false, reason: "empty" };
    try {
      var lines = linesOf(text);
      var format = formatOf(lines);
      return format ? READERS[format](lines) : { ok: false, reason: "unrecognized" };
    } catch (error) {
      // Nothing above should throw; if it does, the reader is told the text was not understood, not shown a fault.
      return { ok: false, reason: "unrecognized" };
    }
  }

  root.TimelineEnvironment = {
    read: read, limits: { chars: MAX_CHARS, lines: MAX_LINES, lineLength: MAX_LINE }, localOfBuild: localOfBuild
  };
})(typeof self !== "undefined" ? self : this);
