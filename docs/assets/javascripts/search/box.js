/* Our layer over Material's search box, on every page (overrides/hooks/search_worker.py puts it just before
 * Material's bundle). Material's own bundle stays as it is; this only feeds it the events it listens to, or
 * keeps from it the ones it should not act on, and tells the search worker when search opens.
 *  - Material searches when a key goes up in the box. Text that arrives without one (pasted with the mouse,
 *    an input-method candidate clicked, dictation) left "type to start searching" on screen: after every
 *    change of the box's text outside a composition, and when a composition ends, a keyup is replayed.
 *  - While an input method composes (pinyin, for Chinese), its keys are its own: Enter that commits a
 *    candidate must not open the first result, and the half-typed pinyin is not searched.
 *  - Opening search tells the worker to load the reader's language's index, so the first query does not
 *    wait for it (docs/assets/javascripts/search/engine.js). Material makes the worker as its bundle runs,
 *    right after this script: the one constructor call for our worker is watched, then Worker is restored.
 *  - Which parts of the index the worker has (its "loaded" messages) are listed on the page's root element,
 *    `data-search-index="zh.head zh.text …"`: what the tests and the benchmark wait for before judging the
 *    full-text ranking. And which query the list on screen answers, `data-search-answered` (set two frames after
 *    the worker's answer, once Material has drawn it): what they wait for before reading results, however slow
 *    the machine, instead of a timer.
 */
(function () {
  "use strict";

  var searchWorker = null;

  function recordAnswer(message) {
    var query = String(message.data.query);
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { document.documentElement.setAttribute("data-search-answered", query); });
    });
  }

  function recordLoadedPart(event) {
    var message = event.data;
    if (message && message.type === 3 && message.data && typeof message.data.query === "string") recordAnswer(message);
    if (!message || message.type !== "loaded" || !message.data) return;
    var root = document.documentElement;
    var parts = (root.getAttribute("data-search-index") || "").split(" ").filter(Boolean);
    parts.push(String(message.data.lang) + "." + String(message.data.part));
    root.setAttribute("data-search-index", parts.join(" "));
  }
  var NativeWorker = window.Worker;  // the iframe-worker shim's, in the offline copy
  if (NativeWorker) {
    window.Worker = function (url, options) {
      var worker = new NativeWorker(url, options);
      if (/search\/worker\.\w+\.js/.test(String(url))) {
        searchWorker = worker;
        window.Worker = NativeWorker;
        worker.addEventListener("message", recordLoadedPart);
      }
      return worker;
    };
  }

  var input = document.querySelector(".md-search__input");
  var toggle = document.getElementById("__search");
  if (!input) return;
  var composing = false;

  function replayKeyup() {
    input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  }

  function composingNow(event) {
    return composing || event.isComposing || event.keyCode === 229;  // 229: a key the input method took
  }

  input.addEventListener("compositionstart", function () { composing = true; });
  input.addEventListener("compositionend", function () { composing = false; replayKeyup(); });
  input.addEventListener("input", function (event) { if (!composingNow(event)) replayKeyup(); });

  // Capturing on window runs before Material's listeners (keydown on window, keyup on the box).
  ["keydown", "keyup"].forEach(function (type) {
    window.addEventListener(type, function (event) {
      if (event.target === input && composingNow(event)) event.stopImmediatePropagation();
    }, true);
  });

  var opened = false;
  function announceOpen() {
    if (opened || !searchWorker) return;
    opened = true;
    searchWorker.postMessage({ type: "open" });
  }
  input.addEventListener("focus", announceOpen);
  if (toggle) toggle.addEventListener("change", function () { if (toggle.checked) announceOpen(); });
})();
