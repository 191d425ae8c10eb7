/* What every page needs from the views' behaviour, kept apart from views.js so that pages without a view
 * (release pages, home, topics) load and run nothing else (deferred: no work before the page is drawn).
 * - Language switch: keeps the query (view state) and the #fragment (the section being read).
 * - Folded notes open on paper: they are part of the record. */
(function () {
  "use strict";

  // --- language switch keeps the view state and the section --------------------------------------------

  function setupLanguageSwitch() {
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
      link.addEventListener("click", function () {
        var target = link.getAttribute("href").split("#")[0].split("?")[0];
        link.setAttribute("href", target + location.search + location.hash);
      });
    });
  }

  // Folded notes are part of the record on paper.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.claim-note").forEach(function (d) { d.open = true; });
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setupLanguageSwitch); else setupLanguageSwitch();
})();
