/* The 404 page (overrides/404.html) serves every missing URL, in both languages. A reader who followed an
 * English link (/en/... under the site's root) gets the English message first and English search results
 * first; anyone else the Chinese. A missing release page is offered the newest release and the timeline. Runs before
 * Material's bundle, which reads the page config once. */
(function () {
  "use strict";

  var config = document.getElementById("__config");
  var data = JSON.parse(config.textContent);
  var root = new URL(data.base, location.href).pathname;
  var path = location.pathname.indexOf(root) === 0 ? location.pathname.slice(root.length) : "";
  var lang = /^en(\/|$)/.test(path) ? "en" : "zh";

  // The build's search worker is the default language's; the reader's language decides which results lead.
  data.search = data.search.replace(/worker\.\w+\.js/, "worker." + lang + ".js");
  config.textContent = JSON.stringify(data);

  function readerFirst(box) {
    var mine = box && box.querySelector('[data-lang="' + lang + '"]');
    if (mine) box.insertBefore(mine, box.querySelector("[data-lang]"));
  }

  readerFirst(document.querySelector("[data-not-found]"));
  // A missing release page (releases/9.9/, en/releases/2.16/): the newest release and the timeline are offered.
  var release = document.querySelector("[data-not-found-release]");
  if (release && /^(en\/)?releases\/[^/]+/.test(path)) {
    release.hidden = false;
    readerFirst(release);
  }
})();
