/* The install picker of a release page (scripts/install_view.py draws it) and the platform choice of the
 * compatibility matrix (scripts/compat_views.py). Plain DOM, no network, works from file:// (offline copy).
 * - Install picker: without script every command is listed under its label; with it, the reader picks an OS, a
 *   package manager and a compute platform and sees one command, or one sentence saying why that combination
 *   never existed. The choice is remembered (localStorage) across reloads and release pages.
 * - Matrix: the platform <select> swaps each Python cell to the wheels PyPI has for that platform. */
(function () {
  "use strict";

  var KEY = "pytorch-timeline-install";

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

  function matches(element, choice) {
    var system = element.getAttribute("data-system") || "";
    var pm = element.getAttribute("data-pm") || "";
    var compute = element.getAttribute("data-compute") || "";
    return (!system || system === choice.os) && (!pm || pm === choice.pm) &&
      (!compute || compute === choice.compute || compute === choice.compute.split("-")[0]);
  }

  function setupPicker(picker) {
    var form = picker.querySelector(".install-choices");
    var options = Array.prototype.slice.call(picker.querySelectorAll(".install-option"));
    var reasons = Array.prototype.slice.call(picker.querySelectorAll(".install-reason"));
    if (!form) return;

    function value(group) {
      var checked = form.querySelector('input[name="' + group + '"]:checked');
      return checked ? checked.value : "";
    }

    function check(group, wanted) {
      var input = wanted && form.querySelector('input[name="' + group + '"][value="' + CSS.escape(wanted) + '"]');
      input = input || form.querySelector('input[name="' + group + '"]');
      if (input) input.checked = true;
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
      }
      var reasonShown = false;
      reasons.forEach(function (reason) {
        var ok = !shown && !reasonShown && matches(reason, choice);
        reason.hidden = !ok;
        if (ok) reasonShown = true;
      });
      if (remember) save(choice);
    }

    var saved = load();
    check("os", saved.os);
    check("pm", saved.pm);
    check("compute", saved.compute);
    form.hidden = false;
    picker.classList.add("install-picker-on");
    form.addEventListener("change", function () { apply(true); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    apply(false);
  }

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
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
