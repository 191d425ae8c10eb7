/* Behaviour of the generated views; plain DOM, no network, works from file:// (offline copy).
 * - Lifecycle page: the area <select> hides the features of other areas (and a group left empty); the choice is
 *   kept in ?area=.
 * - Compatibility page: filters rows by Python, CUDA and torchvision; kept in ?python=&cuda=&torchvision=. Each
 *   row's button opens its sources, a full-width row under it (the row itself keeps its layout).
 * - Upgrade page (compare): everything to watch for between two releases, from the JSON embedded in the
 *   page, breaking first; mirrors scripts/views/upgrade.py:upgrade_items, which the tests use as the reference.
 *   An area filter (counted per area) and a search box narrow it; kept in ?from=&to=&area=&q=.
 * Loaded, deferred, only by the pages that hold a view (overrides/main.html, page.meta.uses_views set by
 * overrides/hooks/generated_views.py); what every page needs is in every-page.js.
 * View state lives in the query, not the fragment: a fragment would name an element that does not exist. */
(function () {
  "use strict";

  function params() {
    return new URLSearchParams(location.search);
  }

  function setQuery(values) {
    var query = new URLSearchParams(location.search);
    Object.keys(values).forEach(function (key) {
      if (values[key]) query.set(key, values[key]); else query.delete(key);
    });
    var text = query.toString();
    try {
      history.replaceState(null, "", (text ? "?" + text : location.pathname) + location.hash);
    } catch (error) {
      // Some browsers refuse to change a file:// URL's query; the view still works, unshareable.
    }
  }

  function setupLifecycleFilter() {
    var select = document.getElementById("lifecycle-area");
    if (!select) return;
    var list = document.getElementById(select.getAttribute("data-filter-target"));
    var shown = document.getElementById("lifecycle-shown");
    function apply(remember) {
      var area = select.value, count = 0;
      list.querySelectorAll("[data-feature]").forEach(function (row) {
        row.hidden = area !== "" && row.getAttribute("data-area") !== area;
        if (!row.hidden) count += 1;
      });
      // A group (the journeys, the features with one label) with nothing left in the area goes with its title.
      list.querySelectorAll("ol[data-group]").forEach(function (group) {
        var empty = !group.querySelector("[data-feature]:not([hidden])");
        var title = list.querySelector('[data-group-title="' + group.getAttribute("data-group") + '"]');
        group.hidden = empty;
        if (title) title.hidden = empty;
      });
      if (shown) shown.textContent = area ? shown.getAttribute("data-template").replace("{shown}", count) : "";
      if (remember) setQuery({ area: area });
    }
    select.addEventListener("change", function () { apply(true); });
    var wanted = params().get("area") || new URLSearchParams(location.hash.slice(1)).get("area");
    if (wanted && select.querySelector('option[value="' + CSS.escape(wanted) + '"]')) select.value = wanted;
    apply(false);
  }

  /* A matrix row's sources: a row of their own under it (full width), opened by the row's button. */
  function toggleOf(row) {
    return row.querySelector(".row-sources-toggle");
  }

  function isOpen(row) {
    var toggle = toggleOf(row);
    return !!toggle && toggle.getAttribute("aria-expanded") === "true";
  }

  function showSources(row, open) {
    var toggle = toggleOf(row);
    if (!toggle) return;
    var sources = document.getElementById(toggle.getAttribute("aria-controls"));
    if (sources && sources.classList.contains("compat-sources-row")) sources.hidden = !open;  // ours only
  }

  function setupCompatSources() {
    var table = document.getElementById("compat-table");
    if (!table) return;
    table.addEventListener("click", function (event) {
      var toggle = event.target.closest && event.target.closest(".row-sources-toggle");
      if (!toggle) return;
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      showSources(toggle.closest("tr"), open);
    });
  }

  function setupCompatFilters() {
    var form = document.getElementById("compat-filters");
    if (!form) return;
    var table = document.getElementById(form.getAttribute("data-target"));
    var count = document.getElementById("compat-count");
    var none = document.getElementById("compat-none");
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-filter]"));
    var rows = Array.prototype.slice.call(table.querySelectorAll("tbody tr.compat-row"));
    function apply(remember) {
      var shown = 0, state = {};
      rows.forEach(function (row) {
        var ok = selects.every(function (select) {
          var want = select.value;
          if (!want) return true;
          return (" " + (row.getAttribute("data-" + select.getAttribute("data-filter")) || "") + " ").indexOf(" " + want + " ") >= 0;
        });
        row.hidden = !ok;
        showSources(row, ok && isOpen(row));
        if (ok) shown += 1;
      });
      selects.forEach(function (select) { state[select.name] = select.value; });
      count.textContent = count.getAttribute("data-template").replace("{shown}", shown).replace("{total}", rows.length);
      none.hidden = shown !== 0;
      if (remember) setQuery(state);
    }
    var query = params();
    selects.forEach(function (select) {
      var want = query.get(select.name);
      if (want && select.querySelector('option[value="' + CSS.escape(want) + '"]')) select.value = want;
      select.addEventListener("change", function () { apply(true); });
    });
    form.addEventListener("reset", function () { setTimeout(function () { apply(true); }, 0); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    apply(false);
  }

  // --- upgrade view -----------------------------------------------------------------------------------

  /* Breaking first (scripts/views/upgrade.py GROUPS): what changes under working code, what stops it, what only
   * warns; the features added or relabeled last, folded. */
  var GROUPS = ["defaults", "errors", "breaking", "platforms", "deprecations", "features"];

  function versionKey(v) {
    return v.split(".").map(function (p) { return parseInt(p, 10); });
  }

  function before(a, b) {
    var x = versionKey(a), y = versionKey(b);
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) < (y[i] || 0);
    }
    return false;
  }

  /* The twin of scripts/views/upgrade.py:upgrade_items. */
  function upgradeItems(releases, from, to) {
    var lo = before(to, from) ? to : from, hi = before(to, from) ? from : to;
    var groups = {};
    GROUPS.forEach(function (g) { groups[g] = []; });
    var state = {};
    releases.forEach(function (r) {
      var inside = before(lo, r.version) && !before(hi, r.version);
      if (!inside) {
        if (!before(lo, r.version)) r.features.forEach(function (f) { state[f.id] = f.maturity; });
        return;
      }
      r.changes.forEach(function (c) { groups[c.group].push({ release: r, change: c }); });
      r.drops.forEach(function (d) { groups.platforms.push({ release: r, drop: d }); });
      r.features.forEach(function (f) {
        var was = state[f.id];
        if (was !== f.maturity) groups.features.push({ release: r, feature: f, from: was });
        state[f.id] = f.maturity;
      });
    });
    return groups;
  }

  function el(tag, className, html) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (html !== undefined) node.innerHTML = html;  // only HTML the build escaped (see upgrade_data)
    return node;
  }

  function badge(maturity, label) {
    return '<span class="maturity maturity-' + maturity.toLowerCase() + '" data-maturity="' + maturity + '">' + label + "</span>";
  }

  function areaOf(item) {
    return (item.change || item.drop || item.feature).area;
  }

  /* One item of the list: its release, its kind, its words; data-area and its text for the filters. */
  function itemNode(item, text, labels) {
    var li = el("li", "upgrade-item");
    li.setAttribute("data-version", item.release.version);
    li.setAttribute("data-area", areaOf(item));
    var link = document.createElement("a");
    link.className = "upgrade-version";
    link.textContent = item.release.version;
    if (item.change) {
      li.setAttribute("data-id", item.change.id);
      link.href = item.release.url + "#" + item.change.anchor;
      li.appendChild(link);
      li.appendChild(el("span", "change-category category-" + item.change.category)).textContent = item.change.label;
      li.appendChild(el("span", "upgrade-text", item.change.html + item.change.evidence));
      if (item.change.note) li.appendChild(el("span", "upgrade-note")).textContent = item.change.note;
    } else if (item.drop) {
      li.setAttribute("data-id", item.drop.id);
      link.href = item.release.url + "#" + item.drop.anchor;
      li.appendChild(link);
      li.appendChild(el("span", "change-category category-" + item.drop.category)).textContent = item.drop.label;
      li.appendChild(el("span", "upgrade-text", item.drop.html));
    } else {
      li.setAttribute("data-id", item.feature.id);
      link.href = item.release.url + "#" + item.feature.id;
      li.appendChild(link);
      var change = item.from === undefined ? text.feature_new + " " : badge(item.from, labels[item.from] || item.from) + " → ";
      li.appendChild(el("span", "upgrade-text", item.feature.name + " · " + change + badge(item.feature.maturity, item.feature.label)));
      li.appendChild(el("span", "upgrade-note")).textContent = item.feature.area_label;
    }
    li.setAttribute("data-search", (li.textContent + " " + (item.change || item.drop || item.feature).id).toLowerCase());
    return li;
  }

  function setupCompare() {
    var form = document.getElementById("compare-form");
    if (!form) return;
    var releases = JSON.parse(document.getElementById("compare-data").textContent);
    var text = JSON.parse(document.getElementById("compare-strings").textContent);
    var labels = {};
    releases.forEach(function (r) { r.features.forEach(function (f) { labels[f.maturity] = f.label; }); });
    var known = releases.map(function (r) { return r.version; });
    var from = document.getElementById("compare-from"), to = document.getElementById("compare-to");
    var area = document.getElementById("compare-area"), search = document.getElementById("compare-q");
    var result = document.getElementById("compare-result");
    var message = document.getElementById("compare-message");
    var none = document.getElementById("compare-none");

    function show(note) {
      message.textContent = note || "";
      message.hidden = !note;
    }

    /* The site lists a selection: link the complete notes of every release in the range (built-in URLs). */
    function appendReleaseNotes(inRange) {
      var linked = inRange.filter(function (r) { return r.notes; });
      if (!linked.length) return;
      var note = result.appendChild(el("p", "compare-notes"));
      note.appendChild(document.createTextNode(text.compare_notes + " "));
      linked.forEach(function (r, i) {
        if (i) note.appendChild(document.createTextNode(" · "));
        var a = note.appendChild(document.createElement("a"));
        a.href = r.notes;
        a.setAttribute("data-version", r.version);
        a.textContent = "v" + r.version + ".0";
      });
    }

    /* Area and words: hide what does not match, say how many each group shows, count each area of the range. */
    function applyFilters(remember) {
      var wantArea = area.value, words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var perArea = {}, all = 0, shownAll = 0, filtered = !!(wantArea || words.length);
      result.querySelectorAll(".upgrade-group").forEach(function (section) {
        var shown = 0, items = section.querySelectorAll("li.upgrade-item");
        items.forEach(function (li) {
          var itemArea = li.getAttribute("data-area"), haystack = li.getAttribute("data-search");
          var byWords = words.every(function (w) { return haystack.indexOf(w) >= 0; });
          if (byWords) { perArea[itemArea] = (perArea[itemArea] || 0) + 1; all += 1; }
          var ok = byWords && (!wantArea || itemArea === wantArea);
          li.hidden = !ok;
          if (ok) shown += 1;
        });
        shownAll += shown;
        section.hidden = shown === 0;
        var count = section.querySelector(".upgrade-count");
        count.textContent = (filtered ? text.group_count_filtered : text.group_count).replace("{shown}", shown).replace("{total}", items.length);
        var details = section.querySelector("details");
        if (details && words.length && shown) details.open = true;
      });
      Array.prototype.forEach.call(area.options, function (option) {
        var name = option.value ? text.areas[option.value] : null;
        option.textContent = name ? text.filter_area_count.replace("{area}", name).replace("{count}", perArea[option.value] || 0)
          : text.filter_all_areas.replace("{count}", all);
      });
      none.hidden = !(filtered && shownAll === 0 && result.querySelector(".upgrade-group"));
      if (remember) setQuery({ from: from.value, to: to.value, area: wantArea, q: search.value.trim() });
    }

    function render(remember) {
      result.textContent = "";
      result.removeAttribute("data-count");
      if (from.value === to.value) { show(text.compare_same); result.setAttribute("data-count", "0"); none.hidden = true; return; }
      show("");
      var groups = upgradeItems(releases, from.value, to.value);
      var total = 0;
      GROUPS.forEach(function (g) { total += groups[g].length; });
      var inRange = releases.filter(function (r) {
        var lo = before(to.value, from.value) ? to.value : from.value, hi = before(to.value, from.value) ? from.value : to.value;
        return before(lo, r.version) && !before(hi, r.version);
      });
      var summary = text.compare_summary.replace("{from_}", from.value).replace("{to}", to.value).replace("{count}", inRange.length)
        .replace("{items}", total - groups.features.length).replace("{features}", groups.features.length);
      if (before(to.value, from.value)) summary += text.compare_reverse;
      result.appendChild(el("p", "compare-summary")).textContent = summary;
      var empty = [];
      GROUPS.forEach(function (g) {
        if (!groups[g].length) { empty.push(text["group_" + g]); return; }
        var section = el("section", "upgrade-group");
        section.setAttribute("data-group", g);
        var heading = el("h2", "upgrade-group-title");
        heading.id = "upgrade-" + g;
        heading.appendChild(document.createTextNode(text["group_" + g] + " "));
        heading.appendChild(el("span", "upgrade-count"));
        var list = el("ul", "upgrade-list");
        groups[g].forEach(function (item) { list.appendChild(itemNode(item, text, labels)); });
        if (g === "features") {
          // Not a hazard: folded, one click away (and open when the words asked for are in it).
          var details = el("details", "upgrade-features");
          var summaryNode = document.createElement("summary");
          summaryNode.appendChild(heading);
          details.appendChild(summaryNode);
          details.appendChild(list);
          section.appendChild(details);
        } else {
          section.appendChild(heading);
          section.appendChild(list);
        }
        result.appendChild(section);
      });
      if (empty.length) result.appendChild(el("p", "upgrade-empty")).textContent = text.group_empty.replace("{groups}", empty.join(" · "));
      appendReleaseNotes(inRange);
      result.setAttribute("data-count", String(total));
      applyFilters(false);
      if (remember) setQuery({ from: from.value, to: to.value, area: area.value, q: search.value.trim() });
    }

    var query = params();
    var fragment = new URLSearchParams(location.hash.slice(1));  // links from before the query held the pair
    var wantFrom = query.get("from") || fragment.get("from"), wantTo = query.get("to") || fragment.get("to");
    var unknown = [wantFrom, wantTo].filter(function (v) { return v && known.indexOf(v) < 0; });
    if (wantFrom && known.indexOf(wantFrom) >= 0) from.value = wantFrom;
    if (wantTo && known.indexOf(wantTo) >= 0) to.value = wantTo;
    var wantArea = query.get("area");
    if (wantArea && area.querySelector('option[value="' + CSS.escape(wantArea) + '"]')) area.value = wantArea;
    search.value = query.get("q") || "";
    form.addEventListener("submit", function (event) { event.preventDefault(); render(true); });
    from.addEventListener("change", function () { render(true); });
    to.addEventListener("change", function () { render(true); });
    area.addEventListener("change", function () { applyFilters(true); });
    search.addEventListener("input", function () { applyFilters(true); });
    if (unknown.length) {
      show(text.compare_unknown.replace("{version}", unknown.join(", ")));  // keep the URL as it is
    } else {
      render(false);
    }
  }

  function setup() {
    setupLifecycleFilter();
    setupCompatSources();
    setupCompatFilters();
    setupCompare();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
