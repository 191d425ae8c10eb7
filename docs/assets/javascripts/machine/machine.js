/* The "your machine" page (docs/machine.md): the reader's machine from the URL query or the form, and for every
 * release whether it installs and runs there, with the exact command; the environment check turns a pasted
 * `pip list` / `pip freeze` / `conda list` / collect_env into a machine (machine/environment.js reads it, with
 * machine/gpus.js for GPU names) and says what is wrong with it, each with the command that fixes it.
 *
 * The verdict is the one of scripts/verdicts/machine.py, decided from the same facts (the page's JSON island
 * #machine-data, written by scripts/views/machine/page.py); tests/test_machine_page.py runs both on a sweep of
 * machines and compares every field. Keep the two in step: same rules, same order, same reason codes and values.
 * The pure part (TimelineMachine.parseQuery, .fit, .answer, .problems) has no DOM and runs under Node's vm.
 * Plain DOM, no network, works from file:// (offline copy). Nothing typed in the page is sent anywhere. */
(function (root) {
  "use strict";

  var KEYS = ["os", "python", "gpu", "driver", "glibc", "macos", "date"];
  var OSES = ["linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows"];
  var GPU_KINDS = ["none", "mps", "rocm", "xpu"];
  var MAX_VALUE = 64;
  var SHOWN = 40;
  var PATTERNS = {
    python: /^[23]\.\d{1,2}t?$/,
    gpu: /^(?:[1-9]|1[0-9])\.\d$/,
    driver: /^\d{2,4}(?:\.\d{1,3}){0,2}$/,
    glibc: /^2\.\d{1,2}$/,
    macos: /^(?:1\d|2\d)(?:\.\d{1,2})?$/,
    date: /^\d{4}-\d{2}-\d{2}$/
  };
  var PLACE = /\{([a-z-]+)\}/g;

  // --- small helpers ------------------------------------------------------------------------------------------

  function has(list, value) {
    return list.indexOf(value) >= 0;
  }

  function dotted(version) {
    return version.split(".").map(function (part) { return parseInt(part, 10); });
  }

  /* -1, 0, 1 as Python compares tuples: part by part, then the shorter first ("525" < "525.60"). */
  function compare(a, b) {
    var x = dotted(a);
    var y = dotted(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length === y.length ? 0 : (x.length < y.length ? -1 : 1);
  }

  function codePoints(text) {
    return Array.from(text);
  }

  function validDate(value) {
    var parts = value.split("-").map(function (p) { return parseInt(p, 10); });
    var year = parts[0];
    var month = parts[1];
    var day = parts[2];
    if (year < 1 || month < 1 || month > 12 || day < 1) return false;
    var leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    var days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
    return day <= days;
  }

  function fill(template, values) {
    return String(template).replace(PLACE, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  }

  // --- the query (scripts/verdicts/machine_model.py parse_query) --------------------------------------------

  /* The machine a query describes, as parse_query reads it. `data`: the island (its Pythons and releases). */
  function parseQuery(query, data) {
    var params = new URLSearchParams(query);
    var seen = {};
    params.forEach(function (value, key) {
      if ((has(KEYS, key) || key === "release") && !Object.prototype.hasOwnProperty.call(seen, key)) {
        seen[key] = value;
      }
    });
    var releases = data.releases.map(function (r) { return r.v; });
    var values = {};
    var problems = [];
    function refuse(key, code) {
      problems.push([key, codePoints(seen[key]).slice(0, SHOWN).join(""), code]);
    }
    KEYS.concat(["release"]).forEach(function (key) {
      var value = Object.prototype.hasOwnProperty.call(seen, key) ? seen[key] : "";
      if (value === "") return;
      if (codePoints(value).length > MAX_VALUE) refuse(key, "invalid");
      else if (key === "os") {
        if (has(OSES, value)) values[key] = value; else refuse(key, "unknown");
      } else if (key === "release") {
        if (has(releases, value)) values[key] = value; else refuse(key, "unknown");
      } else if (key === "gpu" && has(GPU_KINDS, value)) values[key] = value;
      else if (!PATTERNS[key].test(value) || (key === "date" && !validDate(value))) refuse(key, "invalid");
      else if (key === "python" && !has(data.pythons, value)) refuse(key, "unknown");
      else values[key] = value;
    });
    var os = values.os || null;
    if (os !== null) {
      [["glibc", os.indexOf("linux") !== 0], ["macos", os.indexOf("macos") !== 0]].forEach(function (pair) {
        if (values[pair[0]] !== undefined && pair[1]) {
          refuse(pair[0], "not-this-os");
          delete values[pair[0]];
        }
      });
      if (values.gpu === "mps" && os.indexOf("macos") !== 0) {
        refuse("gpu", "mps-macos");
        delete values.gpu;
      }
    }
    if (values.driver !== undefined && has(GPU_KINDS, values.gpu)) {
      refuse("driver", "not-nvidia");
      delete values.driver;
    }
    var release = values.release || null;
    delete values.release;
    var taken = [];
    KEYS.forEach(function (key) { if (values[key] !== undefined) taken.push([key, values[key]]); });
    var machine = null;
    if (os !== null) {
      machine = {};
      KEYS.forEach(function (key) { machine[key] = values[key] !== undefined ? values[key] : null; });
    }
    return { machine: machine, release: release, problems: problems, values: taken };
  }

  /* The query of a machine, keys in KEYS order (machine_query). */
  function machineQuery(machine, release) {
    var parts = [];
    KEYS.forEach(function (key) { if (machine[key]) parts.push(key + "=" + machine[key]); });
    if (release) parts.push("release=" + release);
    return parts.join("&");
  }

  // --- one build (scripts/verdicts/machine.py) ---------------------------------------------------------------

  function reason(code, params) {
    return [code, params || []];
  }

  function param(r, key) {
    for (var i = 0; i < r[1].length; i++) if (r[1][i][0] === key) return r[1][i][1];
    return null;
  }

  function isNvidia(m) {
    return m.gpu !== null && !has(GPU_KINDS, m.gpu);
  }

  function label(b) {
    if (b.s === "index") return b.t;
    return b.u ? "PyPI " + b.u : "PyPI";
  }

  function pythonSpan(pythons) {
    var plain = [];
    pythons.forEach(function (p) { if (p.slice(-1) !== "t" && !has(plain, p)) plain.push(p); });
    plain.sort(compare);
    if (!plain.length) return "–";
    return plain.length === 1 ? plain[0] : plain[0] + "–" + plain[plain.length - 1];
  }

  function outcome(state, reasons, notes, command, pythons) {
    return { state: state, reasons: reasons || [], notes: notes || [], command: command || null, pythons: pythons || [] };
  }

  function install(b, m) {
    if (b.n) {
      var why = m.python ? [reason("python-unknown", [["python", m.python], ["tags", label(b)]])] : [];
      return outcome(m.python ? "maybe" : "runs", why, [], b.c[0][0]);
    }
    var entries = [];
    b.c.forEach(function (c) { c[1].forEach(function (p) { entries.push([c, p]); }); });
    var hits = m.python ? entries.filter(function (e) { return e[1][0] === m.python; }) : entries;
    if (!hits.length) {
      var have = pythonSpan(entries.map(function (e) { return e[1][0]; }));
      return outcome("fail", [reason("python", [["python", m.python || ""], ["have", have]])]);
    }
    var linux = m.os.indexOf("linux") === 0;
    var limit = linux ? m.glibc : (m.os.indexOf("macos") === 0 ? m.macos : null);
    var kind = linux ? "glibc" : "macos";
    var fitting = hits.filter(function (e) {
      return limit === null || e[1][1] === null || compare(e[1][1], limit) <= 0;
    });
    if (!fitting.length) {
      var need = null;
      hits.forEach(function (e) { if (e[1][1] && (need === null || compare(e[1][1], need) < 0)) need = e[1][1]; });
      return outcome("fail", [reason(kind, [["need", need]])]);
    }
    var command = fitting[0][0];
    var chosen = fitting.filter(function (e) { return e[0] === command; }).map(function (e) { return e[1]; });
    var notes = [];
    var floor = null;
    chosen.forEach(function (p) { if (p[1] && (floor === null || compare(p[1], floor) < 0)) floor = p[1]; });
    if (limit === null && floor !== null) notes.push(reason("needs-" + kind, [["need", floor]]));
    var refused = chosen.filter(function (p) { return p[2].length && p[0] === m.python; });
    if (refused.length) notes.push(reason("refused", [["python", m.python || ""], ["patches", refused[0][2].join(", ")]]));
    return outcome("runs", [], notes, command[0], chosen.map(function (p) { return p[0]; }));
  }

  function gpuSupport(b, capability) {
    var cap = dotted(capability);
    if ((b.a || []).some(function (a) { var x = dotted(a); return x[0] === cap[0] && x[1] <= cap[1]; })) return "cubin";
    if ((b.x || []).some(function (p) { return compare(p, capability) <= 0; })) return "ptx";
    return null;
  }

  function sm(capability) {
    return "sm_" + capability.replace(".", "");
  }

  function nvidia(b, m) {
    var tags = label(b);
    var out = outcome("runs");
    if (isNvidia(m)) {
      if (!b.a) {
        out.state = "maybe";
        out.reasons.push(reason("archs-unknown", [["tags", tags]]));
      } else {
        var support = gpuSupport(b, m.gpu);
        if (support === null) return outcome("fail", [reason("arch", [["sm", sm(m.gpu)], ["tags", tags]])]);
        if (support === "ptx") out.notes.push(reason("ptx", [["sm", sm(m.gpu)], ["tags", tags]]));
      }
    }
    if (!b.d) {
      out.state = "maybe";
      out.reasons.push(reason("driver-unknown", [["tags", tags]]));
    } else if (m.driver === null) {
      out.notes.push(reason("needs-driver", [["need", b.d], ["family", b.f || ""]]));
    } else if (compare(m.driver, b.d) < 0) {
      return outcome("fail", [reason("driver", [["need", b.d], ["family", b.f || ""], ["tags", tags]])]);
    }
    if (b.e) out.notes.push(reason("experimental", [["tags", tags]]));
    return out;
  }

  function evaluate(b, m) {
    var done = install(b, m);
    if (done.state === "fail") return done;
    var gpu = b.k === "cuda" ? nvidia(b, m) : outcome("runs");
    if (gpu.state === "fail") return gpu;
    var state = done.state === "maybe" || gpu.state === "maybe" ? "maybe" : "runs";
    return outcome(state, done.reasons.concat(gpu.reasons), done.notes.concat(gpu.notes), done.command, done.pythons);
  }

  function withoutTags(r) {
    return JSON.stringify(r[1].filter(function (p) { return p[0] !== "tags"; }));
  }

  /* Reasons in order, each once; two that differ only in the builds they name become one naming both. */
  function merge(reasons) {
    var out = [];
    reasons.forEach(function (r) {
      var rest = withoutTags(r);
      for (var i = 0; i < out.length; i++) {
        var seen = out[i];
        if (seen[0] === r[0] && withoutTags(seen) === rest) {
          var old = param(seen, "tags");
          var add = param(r, "tags");
          if (old !== null && add !== null && !has(old.split(", "), add)) {
            out[i] = [seen[0], seen[1].map(function (p) { return p[0] === "tags" ? [p[0], p[1] + ", " + add] : p; })];
          }
          return;
        }
      }
      out.push(r);
    });
    return out;
  }

  // --- one release --------------------------------------------------------------------------------------------

  function byVersionDown(a, b) {
    return compare(b.v || "0", a.v || "0");
  }

  function stableSort(list, cmp) {
    return list.map(function (item, i) { return [item, i]; })
      .sort(function (x, y) { return cmp(x[0], y[0]) || x[1] - y[1]; })
      .map(function (pair) { return pair[0]; });
  }

  function gpuBuilds(builds, m, fallbackCuda) {
    if (isNvidia(m) || (m.gpu === null && m.driver)) {
      var cuda = builds.filter(function (b) { return b.k === "cuda"; });
      var pypi = cuda.filter(function (b) { return b.s === "pypi"; });
      var taken = pypi.map(function (b) { return b.u; });
      var index = cuda.filter(function (b) { return b.s === "index" && !has(taken, b.u); });
      index = stableSort(index, byVersionDown);
      index = stableSort(index, function (a, b) {
        var x = [a.e ? 1 : 0, (a.v || null) !== fallbackCuda ? 1 : 0];
        var y = [b.e ? 1 : 0, (b.v || null) !== fallbackCuda ? 1 : 0];
        return x[0] - y[0] || x[1] - y[1];
      });
      return pypi.concat(index);
    }
    var kind = m.gpu === "rocm" || m.gpu === "xpu" ? m.gpu : null;
    if (kind === null) return [];
    return stableSort(builds.filter(function (b) { return b.k === kind; }), byVersionDown);
  }

  function cpuBuild(builds, m) {
    var pypi = builds.filter(function (b) { return b.s === "pypi"; })[0] || null;
    var cpu = builds.filter(function (b) { return b.k === "cpu" && b.s === "index" && b.c[0][0]; })[0] || null;
    if (m.gpu === null && !m.driver) return pypi || cpu;
    if (pypi && pypi.k === "cpu") return pypi;
    return cpu || pypi;
  }

  function noBuild(release, m) {
    var where = (release.noWheel || []).filter(function (n) { return n[0] === m.os; })[0];
    if (!where) return reason("platform", [["os", m.os], ["kind", "never"], ["release", ""]]);
    return reason("platform", [["os", m.os], ["kind", where[1]], ["release", where[2] || ""]]);
  }

  function mps(release, m) {
    if (m.os !== "macos-arm64") return outcome("fail", [reason("mps-arm64")]);
    if (!release.mps) return outcome("fail", [reason("mps-none", [["since", release.mpsSince || ""]])]);
    var floor = release.mps[0];
    var since = release.mps[1];
    var later = release.mps[2];
    var laterRelease = release.mps[3];
    if (m.macos === null) {
      if (later) {
        return outcome("runs", [], [reason("needs-mps-raised",
          [["need", floor], ["next", later], ["since", laterRelease || ""]])]);
      }
      return outcome("runs", [], [reason("needs-mps", [["need", floor]])]);
    }
    if (compare(m.macos, floor) < 0) return outcome("fail", [reason("mps-macos", [["need", floor], ["since", since]])]);
    if (later && compare(m.macos, later) < 0 && release.v !== since) {
      return outcome("maybe", [reason("mps-unsure", [["need", floor], ["next", later], ["since", laterRelease || ""]])]);
    }
    return outcome("runs");
  }

  function wantsGpu(m) {
    return (m.gpu !== null && m.gpu !== "none") || Boolean(m.driver);
  }

  function noGpuBuild(release, m) {
    var kind = isNvidia(m) || m.gpu === null ? "cuda" : m.gpu;
    if (kind === "xpu" && release.xpuSince && compare(release.v, release.xpuSince) < 0) {
      return reason("xpu-before", [["since", release.xpuSince]]);
    }
    return reason(kind + "-none", [["os", m.os]]);
  }

  function fitOf(version, status, tag, command, pythons, reasons, notes) {
    return {
      version: version, status: status, tag: tag || null, command: command || null, pythons: pythons || [],
      reasons: reasons || [], notes: notes || [], later: false
    };
  }

  function chosen(version, status, b, done, reasons, notes) {
    return fitOf(version, status, label(b), done.command, done.pythons, merge(reasons), merge(notes));
  }

  function baseFit(release, m) {
    var v = release.v;
    if (release.nopip) return fitOf(v, "no", null, null, [], [reason("no-pip")]);
    var builds = release.b.filter(function (b) { return b.p === m.os; });
    if (!builds.length) return fitOf(v, "no", null, null, [], [noBuild(release, m)]);
    var reasons = [];
    var maybe = null;
    var done;
    if (m.gpu === "mps") {
      var pypi = builds.filter(function (b) { return b.s === "pypi"; })[0] || null;
      done = pypi ? install(pypi, m) : outcome("fail", [noBuild(release, m)]);
      var gpu = mps(release, m);
      if (done.state === "runs" && gpu.state !== "fail" && pypi) {
        return chosen(v, gpu.state, pypi, done, gpu.reasons, gpu.notes);
      }
      if (done.state === "runs") reasons = reasons.concat(gpu.reasons);
    } else {
      var candidates = gpuBuilds(builds, m, release.cuda || null);
      if (!candidates.length && wantsGpu(m)) reasons.push(noGpuBuild(release, m));
      for (var i = 0; i < candidates.length; i++) {
        var out = evaluate(candidates[i], m);
        if (out.state === "runs") return chosen(v, "runs", candidates[i], out, reasons, out.notes);
        if (out.state === "maybe" && maybe === null) maybe = [candidates[i], out];
        if (out.state === "fail") reasons = reasons.concat(out.reasons);
      }
      if (maybe !== null) return chosen(v, "maybe", maybe[0], maybe[1], reasons.concat(maybe[1].reasons), maybe[1].notes);
    }
    var fallback = cpuBuild(builds, m);
    if (fallback === null) return fitOf(v, "no", null, null, [], merge(reasons.length ? reasons : [noBuild(release, m)]));
    done = install(fallback, m);
    if (done.state === "fail") return fitOf(v, "no", null, null, [], merge(done.reasons));
    var status = done.state === "runs" ? (wantsGpu(m) ? "cpu" : "runs") : "maybe";
    return chosen(v, status, fallback, done, reasons.concat(done.reasons), done.notes);
  }

  /* One release on the machine (release_fit). */
  function fit(release, m) {
    var later = Boolean(m.date && release.date > m.date);
    var result = baseFit(release, m);
    var notes = result.notes.slice();
    if (m.date && !later && release.up && release.up > m.date && result.command) {
      notes.push(reason("patch-later", [["patch", release.patch || ""], ["uploaded", release.up]]));
    }
    if (release.prov) notes.push(reason("provisional"));
    result.notes = merge(notes);
    result.later = later;
    return result;
  }

  /* Every release's fit, newest first, and the newest that runs (machine_answer). */
  function answer(data, m) {
    var fits = data.releases.map(function (r) { return fit(r, m); });
    var current = fits.filter(function (f) { return !f.later; });
    var at = 0;
    while (at < current.length && current[at].status !== "runs") at++;
    var newer = current.slice(0, at);
    function first(status) {
      var found = newer.filter(function (f) { return f.status === status; })[0];
      return found ? found.version : null;
    }
    return {
      machine: m, fits: fits, best: at < current.length ? current[at].version : null,
      cpu_newer: first("cpu"), maybe_newer: first("maybe"),
      newest_then: m.date && current.length ? current[0].version : null
    };
  }

  // --- the environment check: what a pasted environment says is wrong ----------------------------------------

  function releaseOf(data, patch) {
    var parts = (patch || "").split(".");
    var minor = parts.length >= 2 ? parts[0] + "." + parseInt(parts[1], 10) : null;
    return data.releases.filter(function (r) { return r.v === minor; })[0] || null;
  }

  function minorOf(version) {
    return version.split(".").slice(0, 2).join(".");
  }

  /* The query values a read environment states (TimelineEnvironment.read's answer), for parseQuery to check:
   * the first GPU NVIDIA's list names, else ROCm, else Apple silicon's GPU; unknown values are left out. */
  function machineOfRead(read) {
    var out = [];
    if (read.os) out.push(["os", read.os]);
    if (read.python) out.push(["python", read.python]);
    var named = (read.gpus || []).filter(function (g) { return g.cc; })[0];
    if (named) out.push(["gpu", named.cc]);
    else if (read.rocm) out.push(["gpu", "rocm"]);
    else if (read.os === "macos-arm64") out.push(["gpu", "mps"]);
    if (read.driver && !read.rocm) out.push(["driver", read.driver]);
    if (read.glibc) out.push(["glibc", read.glibc]);
    if (read.macos) out.push(["macos", read.macos]);
    return out.map(function (pair) { return pair[0] + "=" + encodeURIComponent(pair[1]); }).join("&");
  }

  /* The CUDA a torch was built for, from its local label (cu121) or what collect_env says; null if unstated. */
  function builtCuda(read, torch) {
    var m = /^cu(\d{1,2})(\d)$/.exec(torch.local || "");
    if (m) return m[1] + "." + m[2];
    return read.cuda_runtime || null;
  }

  function driverFor(data, cuda, os) {
    var major = cuda.split(".")[0] + ".x";
    var row = data.drivers.filter(function (d) { return d[0] === cuda; })[0] ||
      data.drivers.filter(function (d) { return d[0] === major; })[0];
    if (!row) return null;
    return os === "windows" ? row[2] : row[1];
  }

  /* What is wrong with a read environment on machine `m` (its answer `ans`): a list of
   * { code, values, fix } where fix is the command that fixes it (null where none installs). */
  function problems(read, data, m, ans) {
    var out = [];
    var torch = read.packages.torch;
    (read.gpus || []).forEach(function (g) {
      if (!g.cc && !read.rocm) out.push({ code: "gpu", values: { name: g.name }, fix: null });
    });
    if (has(read.ambiguous || [], "torch")) out.push({ code: "ambiguous", values: {}, fix: null });
    if (!torch || !torch.version || !m) return out;
    var release = releaseOf(data, torch.version);
    var fits = ans ? ans.fits : [];
    var own = release ? fits.filter(function (f) { return f.version === release.v; })[0] : null;
    var bestFit = ans && ans.best ? fits.filter(function (f) { return f.version === ans.best; })[0] : null;
    var ownFix = own && own.status === "runs" && own.command ? own.command : null;
    var bestFix = bestFit ? bestFit.command : null;
    var shown = torch.version + (torch.local ? "+" + torch.local : "");
    if (release) {
      var pair = (release.pairs || []).filter(function (p) { return p[0] === torch.version; })[0];
      [["torchvision", 1], ["torchaudio", 2]].forEach(function (lib) {
        var have = read.packages[lib[0]];
        var want = pair ? pair[lib[1]] : null;
        // Built for another torch: another minor line than the one paired with this torch patch (a patch release
        // of the same line is built for the same torch).
        if (have && have.version && want && minorOf(have.version) !== minorOf(want)) {
          out.push({
            code: "pairing", values: { lib: lib[0], have: have.version, torch: torch.version, want: want },
            fix: ownFix || "pip install torch==" + torch.version + " " + lib[0] + "==" + want
          });
        }
      });
    }
    var cuda = builtCuda(read, torch);
    var osBuilds = release ? release.b.filter(function (b) { return b.p === m.os; }) : [];
    var pypi = osBuilds.filter(function (b) { return b.s === "pypi"; })[0] || null;
    var fromPypi = !torch.local && release && release.patch === torch.version && pypi;
    if (!cuda && fromPypi && pypi.k === "cuda") cuda = pypi.v;
    var cpuOnly = torch.local === "cpu" || (!torch.local && !cuda && fromPypi && pypi.k === "cpu");
    if (isNvidia(m) && cpuOnly) out.push({ code: "cpu", values: { torch: shown }, fix: ownFix || bestFix });
    if (cuda && m.driver) {
      var need = driverFor(data, cuda, m.os);
      if (need && compare(m.driver, need) < 0) {
        out.push({
          code: "driver", values: { torch: shown, cuda: cuda, need: need, driver: m.driver }, fix: ownFix || bestFix
        });
      }
    }
    if (cuda && isNvidia(m)) {
      var tag = "cu" + cuda.replace(".", "");
      var build = osBuilds.filter(function (b) { return b.u === tag && b.a; })[0];
      if (build && gpuSupport(build, m.gpu) === null) {
        out.push({ code: "arch", values: { torch: shown, tag: tag, sm: sm(m.gpu) }, fix: ownFix || bestFix });
      }
    }
    if (m.python && fromPypi) {
      var pythons = [];
      pypi.c.forEach(function (c) { c[1].forEach(function (p) { pythons.push(p[0]); }); });
      if (!has(pythons, m.python)) {
        out.push({
          code: "python", values: { torch: torch.version, python: m.python, have: pythonSpan(pythons) }, fix: bestFix
        });
      }
    }
    return out;
  }

  // --- the page -----------------------------------------------------------------------------------------------

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function valuesOf(params) {
    var out = {};
    params.forEach(function (p) { out[p[0]] = p[1]; });
    return out;
  }

  /* A command as the site shows commands: a code block with Material's copy button. Material's clipboard handler
   * is delegated, so this button copies too; the text is no <code> element, which Material would give a second
   * button to when it mounts the page's code blocks (it does once, so an answer drawn before and after differs). */
  function commandBlock(command, words) {
    var box = el("div", "highlight machine-command");
    var pre = el("pre");
    var nav = el("div", "md-code__nav");
    var copy = el("button", "md-code__button");
    copy.type = "button";
    copy.title = words.copy;
    copy.setAttribute("aria-label", words.copy);
    copy.setAttribute("data-md-type", "copy");
    copy.setAttribute("data-clipboard-text", command);
    nav.appendChild(copy);
    pre.appendChild(nav);
    pre.appendChild(el("span", "machine-code", command));
    box.appendChild(pre);
    return box;
  }

  function page(M) {
    var island = document.getElementById("machine-data");
    var form = document.getElementById("machine-form");
    var answerBox = document.getElementById("machine-answer");
    var list = document.getElementById("machine-releases");
    var problemsBox = document.getElementById("machine-problems");
    if (!island || !form || !answerBox || !list || !problemsBox) return;
    var data;
    try {
      data = JSON.parse(island.textContent);
    } catch (error) {
      return;
    }
    var w = data.words;
    var fields = {
      os: document.getElementById("machine-os"),
      python: document.getElementById("machine-python"),
      gpu: document.getElementById("machine-gpu"),
      driver: document.getElementById("machine-driver"),
      glibc: document.getElementById("machine-glibc"),
      macos: document.getElementById("machine-macos"),
      date: document.getElementById("machine-date")
    };
    var model = document.getElementById("machine-model");
    var modelNote = el("span", "machine-model-note");
    modelNote.setAttribute("aria-live", "polite");
    if (model && model.parentNode) model.parentNode.appendChild(modelNote);
    var state = { release: null };

    function capabilityText(cc) {
      var major = cc.split(".")[0];
      var named = data.generations.filter(function (g) { return has(g[1], cc) || has(g[1], major + ".x"); })[0];
      return named ? fill(w.generation_cc, { name: named[0], cc: cc }) : fill(w.cc, { cc: cc });
    }

    function ensureOption(select, value) {
      for (var i = 0; i < select.options.length; i++) if (select.options[i].value === value) return;
      var option = el("option", null, capabilityText(value));
      option.value = value;
      select.appendChild(option);
    }

    function setForm(values) {
      var given = valuesOf(values);
      KEYS.forEach(function (key) {
        var field = fields[key];
        if (!field) return;
        var value = given[key] || "";
        if (key === "gpu" && value) ensureOption(field, value);
        if (field.tagName === "SELECT" || document.activeElement !== field || value) field.value = value;
      });
    }

    function formQuery() {
      var parts = [];
      KEYS.forEach(function (key) {
        var value = fields[key] ? fields[key].value.trim() : "";
        if (value) parts.push(key + "=" + encodeURIComponent(value));
      });
      if (state.release) parts.push("release=" + encodeURIComponent(state.release));
      return parts.join("&");
    }

    /* The choice into the URL, after the answer is drawn (a history update costs as much as drawing it); only the
     * last of several quick changes is written. */
    var pendingUrl = null;
    function writeUrl(values) {
      var parts = values.map(function (p) { return p[0] + "=" + encodeURIComponent(p[1]); });
      if (state.release) parts.push("release=" + encodeURIComponent(state.release));
      var url = location.pathname + (parts.length ? "?" + parts.join("&") : "") + location.hash;
      var first = pendingUrl === null;
      pendingUrl = url;
      if (!first) return;
      setTimeout(function () {
        var wanted = pendingUrl;
        pendingUrl = null;
        if (wanted === location.pathname + location.search + location.hash) return;
        try {
          history.replaceState(history.state, "", wanted);
        } catch (error) {
          // some file:// pages refuse it; the answer still shows
        }
      }, 0);
    }

    function reasonText(r, prefix) {
      var values = valuesOf(r[1]);
      if (values.os) values.os = data.oses[values.os] || values.os;
      var key = r[0] === "platform" ? "r_platform_" + values.kind : prefix + r[0];
      return fill(w[key] || r[0], values);
    }

    function fitLine(f) {
      var parts = [];
      f.reasons.forEach(function (r) { parts.push(reasonText(r, "r_")); });
      f.notes.forEach(function (r) { parts.push(reasonText(r, "n_")); });
      return parts;
    }

    function releaseLink(version) {
      var href = data.hrefs && data.hrefs[version];
      var text = fill(w.open_release, { version: version });
      if (!href) return el("span", null, text);
      var link = el("a", null, text);
      link.href = href;
      return link;
    }

    function fitBlock(f, headline) {
      var box = el("div", "machine-fit machine-status-" + f.status);
      box.appendChild(el("p", "machine-headline", headline));
      if (f.command) box.appendChild(commandBlock(f.command, w));
      else if (f.tag === "xpu") box.appendChild(el("p", null, fill(w.no_command, { index: data.xpuIndex })));
      var meta = [];
      if (f.pythons.length) meta.push(fill(w.pythons, { span: f.pythons.join(", ") }));
      var details = meta.concat(fitLine(f));
      if (details.length) {
        var ul = el("ul", "machine-why");
        details.forEach(function (text) { ul.appendChild(el("li", null, text)); });
        box.appendChild(ul);
      }
      return box;
    }

    function fitOfVersion(ans, version) {
      return ans.fits.filter(function (f) { return f.version === version; })[0] || null;
    }

    function statusText(f) {
      return f.later ? w.later : w["status_" + f.status];
    }

    function drawAnswer(parsed) {
      var answerParts = document.createDocumentFragment();
      var listParts = document.createDocumentFragment();
      paint(parsed, answerParts, listParts);
      answerBox.replaceChildren(answerParts);
      list.replaceChildren(listParts);
    }

    function paint(parsed, answerBox, list) {
      if (!parsed.machine) {
        answerBox.appendChild(el("p", null, w.need_os));
        return;
      }
      var m = parsed.machine;
      var ans = M.answer(data, m);
      var gpu = (m.gpu !== null && m.gpu !== "none") || Boolean(m.driver);
      var best = ans.best ? fitOfVersion(ans, ans.best) : null;
      if (best) {
        var head = m.date ? fill(w.best_then, { date: m.date, version: best.version })
          : fill(gpu && best.status === "runs" ? w.best_gpu : w.best, { version: best.version });
        answerBox.appendChild(fitBlock(best, head));
      } else {
        answerBox.appendChild(el("p", "machine-headline", gpu ? w.none_gpu : w.none));
      }
      [["cpu_newer", "cpu_newer"], ["maybe_newer", "maybe_newer"]].forEach(function (pair) {
        var version = ans[pair[0]];
        if (!version) return;
        var f = fitOfVersion(ans, version);
        answerBox.appendChild(fitBlock(f, fill(w[pair[1]], { version: version })));
      });
      if (ans.newest_then) {
        answerBox.appendChild(el("p", "machine-then", fill(w.newest_then, { date: m.date, version: ans.newest_then })));
      }
      var chosen = state.release ? fitOfVersion(ans, state.release) : null;
      if (chosen && chosen.version !== ans.best) {
        answerBox.appendChild(fitBlock(chosen, fill(w.open_release, { version: chosen.version }) + " · " +
          statusText(chosen)));
      }
      list.appendChild(el("p", "machine-list-title", w.per_release));
      var ol = el("ol", "machine-list");
      ans.fits.forEach(function (f) {
        var li = el("li", "machine-status-" + (f.later ? "later" : f.status));
        if (f.version === state.release) li.className += " machine-chosen";
        li.appendChild(releaseLink(f.version));
        li.appendChild(el("span", "machine-status", statusText(f)));
        if (f.tag && f.status !== "no") li.appendChild(el("span", "machine-tag", f.tag));
        var why = fitLine(f);
        if (why.length) li.appendChild(el("span", "machine-line", why.join(" · ")));
        ol.appendChild(li);
      });
      list.appendChild(ol);
    }

    function drawProblems(problems) {
      problemsBox.textContent = "";
      problemsBox.hidden = !problems.length;
      problems.forEach(function (p) {
        var text = fill(w["q_" + p[2]] || p[2], { key: w["k_" + p[0]] || p[0], value: p[1] });
        problemsBox.appendChild(el("span", null, text + " "));
      });
    }

    function apply(query, fromForm) {
      var parsed = M.parseQuery(query, data);
      state.release = parsed.release;
      if (!fromForm) setForm(parsed.values);
      drawProblems(parsed.problems);
      writeUrl(parsed.values);
      drawAnswer(parsed);
      return parsed;
    }

    function readModel() {
      var text = model ? model.value.trim() : "";
      modelNote.textContent = "";
      if (!text || !root.TimelineGpus) return;
      var cc = root.TimelineGpus.computeCapability(text);
      if (cc) {
        ensureOption(fields.gpu, cc);
        fields.gpu.value = cc;
        modelNote.textContent = fill(w.model_found, { model: text, cc: cc });
      } else {
        modelNote.textContent = fill(w.model_unknown, { model: text });
      }
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      apply(formQuery(), true);
    });
    form.addEventListener("change", function (event) {
      if (event.target === model) readModel();
      apply(formQuery(), true);
    });
    if (model) model.addEventListener("input", function () { readModel(); apply(formQuery(), true); });
    apply(location.search, false);

    // The environment check: its text box and button exist only where the reader and this script run.
    var env = document.getElementById("machine-env");
    var result = document.getElementById("machine-env-result");
    if (!env || !result || !root.TimelineEnvironment) return;
    var label = el("label", "machine-env-label", w.env_label);
    label.htmlFor = "machine-env-text";
    var box = el("textarea", "machine-env-text");
    box.id = "machine-env-text";
    box.rows = 8;
    box.spellcheck = false;
    box.setAttribute("autocomplete", "off");
    var button = el("button", "md-button md-button--primary", w.env_button);
    button.type = "button";
    env.insertBefore(label, result);
    env.insertBefore(box, result);
    env.insertBefore(button, result);

    function summary(read) {
      var facts = [];
      var torch = read.packages.torch;
      facts.push(torch && torch.version ? fill(w.env_torch, { version: torch.version + (torch.local ? "+" + torch.local : "") })
        : w.env_none);
      if (read.python) facts.push("Python " + read.python);
      if (read.os) facts.push(data.oses[read.os] || read.os);
      var gpus = [];
      var counts = {};
      (read.gpus || []).forEach(function (g) {
        var name = g.name + (g.cc ? " (" + g.cc + ")" : "");
        if (!Object.prototype.hasOwnProperty.call(counts, name)) gpus.push(name);
        counts[name] = (counts[name] || 0) + 1;
      });
      gpus.forEach(function (name) { facts.push(name + (counts[name] > 1 ? " ×" + counts[name] : "")); });
      if (read.driver) facts.push(w.driver + " " + read.driver);
      if (read.glibc) facts.push("glibc " + read.glibc);
      if (read.macos) facts.push("macOS " + read.macos);
      return fill(w.env_read, { facts: facts.join(", ") });
    }

    button.addEventListener("click", function () {
      result.textContent = "";
      var read = root.TimelineEnvironment.read(box.value);
      if (!read.ok) {
        result.appendChild(el("p", "machine-env-fail", fill(w.env_fail, { reason: w["env_fail_" + read.reason] || read.reason })));
        return;
      }
      var torch = read.packages.torch;
      var own = torch && torch.version ? releaseOf(data, torch.version) : null;
      var query = M.machineOfRead(read) + (own ? "&release=" + own.v : "");
      var parsed = apply(query, false);
      var ans = parsed.machine ? M.answer(data, parsed.machine) : null;
      var found = M.problems(read, data, parsed.machine, ans);
      result.appendChild(el("p", "machine-env-read", summary(read)));
      result.appendChild(el("p", null, w.env_filled));
      if (!found.length) {
        result.appendChild(el("p", "machine-env-ok", w.env_ok));
        return;
      }
      var ul = el("ul", "machine-env-problems");
      found.forEach(function (p) {
        var li = el("li", null, fill(w["env_p_" + p.code], p.values));
        if (p.fix) {
          li.appendChild(el("span", "machine-env-fix", w.env_fix));
          li.appendChild(commandBlock(p.fix, w));
        }
        ul.appendChild(li);
      });
      result.appendChild(ul);
    });
  }

  var api = {
    parseQuery: parseQuery, machineQuery: machineQuery, fit: fit, answer: answer, fill: fill, compare: compare,
    keys: KEYS, machineOfRead: machineOfRead, problems: problems
  };
  root.TimelineMachine = api;
  if (typeof document !== "undefined" && document.getElementById) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { page(api); });
    else page(api);
  }
})(typeof self !== "undefined" ? self : this);
