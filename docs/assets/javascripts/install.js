/* The install picker of a release page (scripts/views/release/install.py draws it), the folds of its feature list
 * (scripts/views/release/features.py) and the platform choice of the compatibility matrix (scripts/views/matrix.py).
 * Plain DOM, no network, works from file:// (offline copy).
 * - Install picker: without script every command is listed under its label; with it, the reader picks an OS, a
 *   package manager and a compute platform and sees one command, or one sentence saying why that combination
 *   never existed. The choice comes from the URL first, then from the last one the reader made (localStorage,
 *   across reloads and release pages), then the first of each group (the plain PyPI command). The URL's query names
 *   the three groups by the values of their radio buttons, so a link can open an exact command:
 *     releases/1.12/?os=windows&pm=pip&compute=cpu#install
 *     os:      linux-x86_64 | linux-aarch64 | macos-arm64 | macos-x86_64 | windows
 *     pm:      pip | conda
 *     compute: default (PyPI's own wheel) | cpu | cuda-<version> | rocm-<version>  (what the release had)
 *   A value the page does not offer is ignored. A choice the reader makes is written back to the query.
 * - Feature folds: a link to something inside a closed fold (#feature-<id>) opens it; printing opens them all.
 * - Matrix: the platform <select> swaps each Python cell to the wheels PyPI has for that platform. */
(function () {
  "use strict";

  var KEY = "pytorch-timeline-install";
  var GROUPS = ["os", "pm", "compute"];

  function load() {
    try {
      return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  function save(choice) {
    try {
      localStorage.setItem(KEY, JSON.stringify(choice));
    } catch (error) {
      // Storage may be off (private mode, some file:// settings): the picker still works, unremembered.
    }
  }

  function fromUrl() {
    var params = new URLSearchParams(location.search);
    var out = {};
    GROUPS.forEach(function (group) {
      if (params.has(group)) out[group] = params.get(group);
    });
    return out;
  }

  function toUrl(choice) {
    var params = new URLSearchParams(location.search);
    GROUPS.forEach(function (group) { params.set(group, choice[group]); });
    try {
      history.replaceState(history.state, "", "?" + params.toString() + location.hash);
    } catch (error) {
      // Some file:// settings refuse it: the choice still shows, only the address does not follow.
    }
  }

  function matches(element, choice) {
    var systems = (element.getAttribute("data-system") || "").split(" ").filter(Boolean);
    var pm = element.getAttribute("data-pm") || "";
    var compute = element.getAttribute("data-compute") || "";
    return (!systems.length || systems.indexOf(choice.os) >= 0) && (!pm || pm === choice.pm) &&
      (!compute || compute === choice.compute || compute === choice.compute.split("-")[0]);
  }

  function setupPicker(picker) {
    var form = picker.querySelector(".install-choices");
    var options = Array.prototype.slice.call(picker.querySelectorAll(".install-option"));
    var reasons = Array.prototype.slice.call(picker.querySelectorAll(".install-reason"));
    if (!form) return;

    function input(group, value) {
      return Array.prototype.filter.call(form.querySelectorAll('input[name="' + group + '"]'), function (radio) {
        return radio.value === value;
      })[0];
    }

    function value(group) {
      var checked = form.querySelector('input[name="' + group + '"]:checked');
      return checked ? checked.value : "";
    }

    // The first wanted value the page offers wins; a value it does not offer is ignored.
    function check(group, wanted) {
      for (var i = 0; i < wanted.length; i++) {
        var radio = typeof wanted[i] === "string" && input(group, wanted[i]);
        if (radio) { radio.checked = true; return; }
      }
      var first = form.querySelector('input[name="' + group + '"]');
      if (first) first.checked = true;
    }

    function apply(remember) {
      var choice = { os: value("os"), pm: value("pm"), compute: value("compute") };
      var shown = null;
      options.forEach(function (option) {
        var ok = option.getAttribute("data-pm") === choice.pm &&
          option.getAttribute("data-compute") === choice.compute &&
          (" " + option.getAttribute("data-systems") + " ").indexOf(" " + choice.os + " ") >= 0;
        option.hidden = !ok || shown !== null;
        if (ok && shown === null) shown = option;
      });
      if (shown) {
        shown.querySelectorAll(".install-system").forEach(function (line) {
          line.hidden = line.getAttribute("data-system") !== choice.os;
        });
        // A note several platforms share shows with the line of any of them.
        shown.querySelectorAll(".install-system-note").forEach(function (note) {
          note.hidden = (" " + note.getAttribute("data-systems") + " ").indexOf(" " + choice.os + " ") < 0;
        });
      }
      var reasonShown = false;
      reasons.forEach(function (reason) {
        var ok = !shown && !reasonShown && matches(reason, choice);
        reason.hidden = !ok;
        if (ok) reasonShown = true;
      });
      if (remember) {
        save(choice);
        toUrl(choice);
      }
    }

    var linked = fromUrl();
    var saved = load();
    GROUPS.forEach(function (group) { check(group, [linked[group], saved[group]]); });
    form.hidden = false;
    picker.classList.add("install-picker-on");
    form.addEventListener("change", function () { apply(true); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    apply(false);
  }

  // --- feature folds -------------------------------------------------------------------------------------------

  function openFoldsAround(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) node.open = true;
    }
  }

  function openLinkedFold() {
    var id = location.hash.slice(1);
    if (!id) return;
    var target;
    try {
      target = document.getElementById(decodeURIComponent(id));
    } catch (error) {
      return;  // a malformed fragment names nothing
    }
    if (!target || !target.closest("details.feature-area")) return;
    openFoldsAround(target);
    target.scrollIntoView();
  }

  window.addEventListener("hashchange", openLinkedFold);
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.feature-area").forEach(function (fold) { fold.open = true; });
  });

  // --- matrix ----------------------------------------------------------------------------------------------------

  function setupMatrixPlatform() {
    var select = document.getElementById("compat-platform");
    if (!select) return;
    var cells = Array.prototype.slice.call(document.querySelectorAll("[data-python-by-platform]"));
    function apply() {
      var platform = select.value;
      cells.forEach(function (cell) {
        var values;
        try {
          values = JSON.parse(cell.getAttribute("data-python-by-platform"));
        } catch (error) {
          return;
        }
        var target = cell.querySelector(".verdict-value");
        if (!target) return;
        if (!cell.hasAttribute("data-default-text")) cell.setAttribute("data-default-text", target.textContent);
        target.textContent = platform ? (values[platform] || "—") : cell.getAttribute("data-default-text");
      });
    }
    select.addEventListener("change", apply);
    apply();
  }

  function start() {
    document.querySelectorAll(".install-picker").forEach(setupPicker);
    setupMatrixPlatform();
    openLinkedFold();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
