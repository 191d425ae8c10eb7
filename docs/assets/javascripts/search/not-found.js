/* The 404 page (overrides/404.html) serves every missing URL, in both languages. A reader who followed an
 * English link (/en/... under the site's root) gets the English message first and English search results
 * first; anyone else the Chinese. Runs before Material's bundle, which reads the page config once. */
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

  var message = document.querySelector("[data-not-found]");
  var mine = message && message.querySelector('[data-lang="' + lang + '"]');
  if (mine) message.insertBefore(mine, message.querySelector("[data-lang]"));
})();
