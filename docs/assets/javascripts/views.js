/* Behaviour of the generated views; plain DOM, no network, works from file:// (offline copy).
 * - Lifecycle page: the area <select> hides the rows of other areas.
 * - Compare page: computes what changed between two releases from the JSON embedded in the page.
 *   Mirrors scripts/render.py:release_changes, which the tests use as the reference. */
(function () {
  "use strict";

  function setupLifecycleFilter() {
    var select = document.getElementById("lifecycle-area");
    if (!select) return;
    var table = document.getElementById(select.getAttribute("data-filter-target"));
    function apply() {
      var area = select.value;
      table.querySelectorAll("tbody tr").forEach(function (row) {
        row.hidden = area !== "" && row.getAttribute("data-area") !== area;
      });
    }
    select.addEventListener("change", apply);
    var fromHash = new URLSearchParams(location.search || location.hash.slice(1)).get("area");
    if (fromHash) { select.value = fromHash; }
    apply();
  }

  function changes(releases, from, to) {
    var versions = releases.map(function (r) { return r.version; });
    var lo = versions.indexOf(from), hi = versions.indexOf(to);
    if (lo > hi) { var swap = lo; lo = hi; hi = swap; }
    var state = {}, out = [];
    releases.slice(0, lo + 1).forEach(function (r) {
      r.features.forEach(function (f) { state[f.id] = f.maturity; });
    });
    releases.slice(lo + 1, hi + 1).forEach(function (r) {
      r.features.forEach(function (f) {
        var before = state[f.id];
        if (before !== f.maturity) {
          out.push({ id: f.id, version: r.version, url: r.url, from: before, feature: f });
        }
        state[f.id] = f.maturity;
      });
    });
    return out;
  }

  function badge(maturity, label) {
    var span = document.createElement("span");
    span.className = "maturity maturity-" + maturity.toLowerCase();
    span.setAttribute("data-maturity", maturity);
    span.textContent = label;
    return span;
  }

  function setupCompare() {
    var form = document.getElementById("compare-form");
    if (!form) return;
    var releases = JSON.parse(document.getElementById("compare-data").textContent);
    var text = JSON.parse(document.getElementById("compare-strings").textContent);
    var labels = {};
    releases.forEach(function (r) { r.features.forEach(function (f) { labels[f.maturity] = f.label; }); });
    var from = document.getElementById("compare-from"), to = document.getElementById("compare-to");
    var result = document.getElementById("compare-result");

    function render() {
      var rows = changes(releases, from.value, to.value);
      result.textContent = "";
      var table = document.createElement("table");
      table.className = "compare-table";
      var head = table.createTHead().insertRow();
      ["PyTorch", text.feature, text.area, text.compare_change].forEach(function (h) {
        var th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.appendChild(th);
      });
      var body = table.createTBody();
      rows.forEach(function (c) {
        var tr = body.insertRow();
        tr.setAttribute("data-feature", c.id);
        tr.setAttribute("data-version", c.version);
        tr.insertCell().textContent = c.version;
        var link = document.createElement("a");
        link.href = c.url + "#" + c.id;
        link.textContent = c.feature.name;
        tr.insertCell().appendChild(link);
        tr.insertCell().textContent = c.feature.area;
        var cell = tr.insertCell();
        if (c.from === undefined) {
          cell.appendChild(document.createTextNode(text.compare_new + " "));
        } else {
          cell.appendChild(badge(c.from, labels[c.from] || c.from));
          cell.appendChild(document.createTextNode(" → "));
        }
        cell.appendChild(badge(c.feature.maturity, c.feature.label));
      });
      var wrap = document.createElement("div");
      wrap.className = "md-typeset__scrollwrap";
      var inner = document.createElement("div");
      inner.className = "md-typeset__table";
      inner.appendChild(table);
      wrap.appendChild(inner);
      result.appendChild(wrap);
      result.setAttribute("data-count", String(rows.length));
      // The pair goes in the query (view state, shareable); older links carried it in the fragment.
      try {
        history.replaceState(null, "", "?from=" + from.value + "&to=" + to.value);
      } catch (error) {
        // Some browsers refuse to change a file:// URL's query; the page still works, unshareable.
      }
    }

    var params = new URLSearchParams(location.search || location.hash.slice(1));
    if (params.get("from")) from.value = params.get("from");
    if (params.get("to")) to.value = params.get("to");
    form.addEventListener("submit", function (event) { event.preventDefault(); render(); });
    from.addEventListener("change", render);
    to.addEventListener("change", render);
    render();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupLifecycleFilter();
    setupCompare();
  });
})();
