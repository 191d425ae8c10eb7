/* Bilingual search engine for the PyTorch Release Timeline (no dependencies; runs in a worker, in Node
 * for tests, and from file:// through the iframe-worker shim).
 *
 * Why not Material's lunr setup: it segments a typed Chinese query against the index vocabulary and never
 * looks up the last word, matches only prefixes of jieba words (系统 misses 存储系统), ORs terms so a page
 * with one word ranks like one with all, and mixes both languages' results. Here:
 *  - Chinese is indexed as character bigrams (plus single characters), so any sub-word matches and word
 *    order does not matter; a query's bigrams all present ranks first (coverage), then by tf-idf.
 *  - English words are lower-cased and lightly stemmed the same way on both sides (training = trained);
 *    the last word typed also matches as a prefix (as-you-type). Versions and API names
 *    (1.6, torch.jit.fork, channels_last) are kept whole as well as split into parts.
 *  - Results of the reader's language come first; the other language's follow, marked.
 */
(function (root) {
  "use strict";

  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
  var WORD = /[a-z0-9_]+(?:[.\-][a-z0-9_]+)*/g;
  var TITLE_BOOST = 8;
  var RELEASE_PAGE = /(^|\/)releases\/\d+\.\d+(\/|\.html)$/;  // hosted and offline URLs

  function normalize(text) {
    return text.normalize("NFKC").toLowerCase().replace(/\u200b/g, "");
  }

  function stripTags(html) {
    return html.replace(/<[^>]*>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  }

  /* A light English stemmer, applied identically to indexed and typed words. */
  function stem(word) {
    if (/[^a-z]/.test(word) || word.length < 4) return word;
    var w = word;
    if (w.length > 5 && /ing$/.test(w)) w = w.slice(0, -3);
    else if (/ies$/.test(w)) w = w.slice(0, -3) + "y";
    else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
    else if (w.length > 4 && /ed$/.test(w)) w = w.slice(0, -2);
    else if (/[^su]s$/.test(w)) w = w.slice(0, -1);
    if (w.length > 3 && /e$/.test(w)) w = w.slice(0, -1);
    if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
    return w;
  }

  /* Tokens of a text for the index: [token, ...] (repeats count as term frequency). */
  function indexTokens(text) {
    var out = [];
    var norm = normalize(text);
    norm.replace(HAN, function (run) {
      for (var i = 0; i < run.length; i++) {
        out.push(run[i]);
        if (i + 1 < run.length) out.push(run.slice(i, i + 2));
      }
      return " ";
    }).replace(WORD, function (word) {
      var parts = word.split(/[.:\-_]/).filter(Boolean);
      if (parts.length > 1) out.push(word);
      if (word.indexOf("_") >= 0 && /[.:\-]/.test(word)) {
        word.split(/[.:\-]/).forEach(function (p) { if (p.indexOf("_") >= 0) out.push(p); });
      }
      parts.forEach(function (p) { out.push(stem(p)); });
      return " ";
    });
    return out;
  }

  /* The query as units to match. Each unit: {key, tokens: [..], prefix: bool, han: bool}. */
  function queryUnits(query) {
    var units = [];
    var norm = normalize(query);
    var endsOpen = !/\s$/.test(query);
    var words = [];
    norm.replace(HAN, function (run) {
      if (run.length === 1) units.push({ key: run, word: run, tokens: [run], han: true });
      for (var i = 0; i + 1 < run.length; i++) {
        units.push({ key: run.slice(i, i + 2), word: run, tokens: [run.slice(i, i + 2)], han: true });
      }
      return " ";
    }).replace(WORD, function (word, offset, all) {
      words.push({ word: word, end: offset + word.length === all.trimEnd().length });
      return " ";
    });
    words.forEach(function (w) {
      var parts = w.word.split(/[.:\-_]/).filter(Boolean);
      if (parts.length > 1) {
        units.push({ key: w.word, word: w.word, tokens: [w.word], whole: true });
        parts.forEach(function (p) { units.push({ key: w.word + "#" + p, word: w.word, tokens: [stem(p)], part: true }); });
      } else {
        units.push({ key: w.word, word: w.word, tokens: [stem(w.word)], raw: w.word, prefix: w.end && endsOpen });
      }
    });
    return units;
  }

  function Index(docs, lang) {
    this.lang = lang || "zh";
    this.docs = [];
    this.postings = Object.create(null); // token -> [[docIndex, weightedTf], ...]
    this.vocabulary = [];
    var self = this;
    docs.forEach(function (doc, i) {
      var title = (doc.title || "").replace(/\u200b/g, "");
      var text = (doc.text || "").replace(/\u200b/g, "");
      var clean = { location: doc.location, title: title, text: text };
      self.docs.push(clean);
      var counts = Object.create(null);  // token -> [in title, in text]
      indexTokens(stripTags(title)).forEach(function (t) { (counts[t] || (counts[t] = [0, 0]))[0] += 1; });
      var textTokens = indexTokens(stripTags(text));
      textTokens.forEach(function (t) { (counts[t] || (counts[t] = [0, 0]))[1] += 1; });
      // Long texts mention everything; normalise the text part (not the title) by length.
      var norm = 1 / Math.sqrt(1 + textTokens.length / 150);
      for (var token in counts) {
        var c = counts[token];
        var weight = (c[0] ? TITLE_BOOST : 0) + (c[1] ? (1 + Math.log(c[1])) * norm : 0);
        (self.postings[token] || (self.postings[token] = [])).push([i, weight]);
      }
    });
    this.vocabulary = Object.keys(this.postings).filter(function (t) { return /^[a-z]/.test(t); }).sort();
  }

  Index.prototype.languageOf = function (location) {
    return /^en\//.test(location) ? "en" : "zh";
  };

  /* Vocabulary words starting with `prefix` (binary search in the sorted list). */
  Index.prototype.expand = function (prefix) {
    var v = this.vocabulary, lo = 0, hi = v.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (v[mid] < prefix) lo = mid + 1; else hi = mid; }
    var out = [];
    for (var i = lo; i < v.length && v[i].indexOf(prefix) === 0 && out.length < 50; i++) out.push(v[i]);
    return out;
  };

  /* Score every document: [{doc, score, coverage, matched: {unitKey: true}}], best first. */
  Index.prototype.match = function (query) {
    var units = queryUnits(query);
    if (!units.length) return { units: units, hits: [] };
    var n = this.docs.length, self = this;
    var hits = Object.create(null);
    var weightTotal = 0;
    units.forEach(function (unit) {
      var tokens = unit.tokens.slice();
      if (unit.prefix && unit.raw.length >= 2) tokens = tokens.concat(self.expand(unit.raw));
      var seen = Object.create(null);
      // A part of a compound (torch.jit.fork -> jit) counts less than the compound itself.
      var unitWeight = unit.part ? 0.5 : 1;
      weightTotal += unitWeight;
      tokens.forEach(function (token) {
        var list = self.postings[token];
        if (!list) return;
        var idf = Math.log(1 + n / list.length);
        var exact = token === unit.tokens[0] ? 1 : 0.6;
        list.forEach(function (p) {
          var h = hits[p[0]] || (hits[p[0]] = { index: p[0], score: 0, covered: 0, matched: Object.create(null) });
          if (!seen[p[0]]) { seen[p[0]] = true; h.covered += unitWeight; h.matched[unit.key] = true; }
          h.score += unitWeight * exact * idf * p[1];
        });
      });
    });
    var out = [];
    for (var k in hits) {
      var h = hits[k];
      h.coverage = h.covered / weightTotal;
      h.doc = this.docs[h.index];
      // The timeline, topic and lifecycle pages repeat every release's facts in short entries; the
      // release page itself is the authority, so its top-level entry gets a head start.
      if (RELEASE_PAGE.test(h.doc.location)) h.score *= 1.5;
      out.push(h);
    }
    // Pages holding every part of the query come first ("or, failing that, ranks them first").
    var best = out.reduce(function (m, h) { return Math.max(m, h.coverage); }, 0);
    out = out.filter(function (h) { return h.coverage >= Math.min(0.5, best); });
    out.sort(function (a, b) { return b.coverage - a.coverage || b.score - a.score; });
    return { units: units, hits: out };
  };

  function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  /* Wrap the matched parts of an HTML string in <mark>, leaving tags alone. */
  function highlight(html, units, matched) {
    var han = [], words = [];
    units.forEach(function (u) {
      if (!matched[u.key]) return;
      if (u.han) han.push(u.tokens[0]);
      else if (u.whole) words.push(escapeRegExp(u.word));
      else if (u.raw) words.push(escapeRegExp(u.raw) + (u.prefix ? "[a-z0-9_]*" : "[a-z]*"), escapeRegExp(u.tokens[0]) + "[a-z]*");
      else words.push(escapeRegExp(u.tokens[0]) + "[a-z]*");
    });
    if (!han.length && !words.length) return html;
    var parts = [];
    if (han.length) parts.push(han.map(escapeRegExp).join("|"));
    if (words.length) parts.push("\\b(?:" + words.join("|") + ")\\b");
    var pattern = new RegExp(parts.join("|"), "gi");
    return html.split(/(<[^>]*>)/).map(function (piece) {
      if (piece.charAt(0) === "<") return piece;
      // Mark runs of matched Han bigrams as one span: collect a mask, then wrap.
      var mask = new Array(piece.length).fill(false);
      piece.replace(pattern, function (m, offset) {
        for (var i = offset; i < offset + m.length; i++) mask[i] = true;
        return m;
      });
      var out = "", open = false;
      for (var i = 0; i < piece.length; i++) {
        if (mask[i] && !open) { out += "<mark>"; open = true; }
        if (!mask[i] && open) { out += "</mark>"; open = false; }
        out += piece[i];
      }
      return out + (open ? "</mark>" : "");
    }).join("");
  }

  var OTHER_LABEL = { zh: "English", en: "中文" };

  /* Material's result shape: groups (one per page) of documents, the page first when it matched. */
  Index.prototype.search = function (query, limit) {
    var result = this.match(query);
    var units = result.units, self = this;
    var groups = Object.create(null), order = [];
    result.hits.forEach(function (h) {
      var page = h.doc.location.split("#")[0];
      if (!groups[page]) { groups[page] = []; order.push(page); }
      groups[page].push(h);
    });
    var pages = order.map(function (page) {
      var hits = groups[page];
      var lang = self.languageOf(page);
      return { page: page, hits: hits, own: lang === self.lang, best: hits[0] };
    });
    // Reader's language first, each side keeping its relevance order.
    pages.sort(function (a, b) { return (b.own - a.own) || (order.indexOf(a.page) - order.indexOf(b.page)); });
    var byLocation = Object.create(null);
    this.docs.forEach(function (d) { byLocation[d.location] = d; });
    return pages.slice(0, limit || 50).map(function (p) {
      var hits = p.hits.slice();
      var parent = byLocation[p.page];
      // Material shows a group's first entry as its heading: always the page, even when only its
      // sections matched (then with no term marked as found).
      var pageHit = hits.filter(function (h) { return h.doc.location === p.page; })[0];
      if (!pageHit && parent) pageHit = { doc: parent, score: 0, coverage: 0, matched: Object.create(null) };
      if (pageHit) hits = [pageHit].concat(hits.filter(function (h) { return h !== pageHit; }));
      return hits.slice(0, 8).map(function (h) {
        var terms = Object.create(null);
        units.forEach(function (u) {
          if (u.part) return;
          terms[u.word] = terms[u.word] || !!h.matched[u.key];
        });
        var title = highlight(h.doc.title, units, h.matched);
        if (!p.own) title = '<span class="search-other-language">' + OTHER_LABEL[self.lang] + "</span> " + title;
        var item = { location: h.doc.location, title: title, text: highlight(h.doc.text, units, h.matched), score: h.score * (0.5 + h.coverage), terms: terms };
        if (parent && h.doc.location !== p.page) item.parent = { location: parent.location, title: parent.title, text: parent.text };
        return item;
      });
    });
  };

  var api = { Index: Index, indexTokens: indexTokens, queryUnits: queryUnits, stem: stem, highlight: highlight };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.TimelineSearch = api;

  /* Worker side: Material's protocol (SETUP 0 -> READY 1, QUERY 2 -> RESULT 3).
   * The hosted site hands Material an index without documents (overrides/hooks/lazy_search_index.py), so
   * no page view pays for it; the documents are fetched here on the first query (root.SEARCH_DOCS, relative
   * to this worker). The offline copy passes them in SETUP, as Material does: file:// cannot fetch. */
  if (typeof root.addEventListener === "function" && typeof root.document === "undefined" || root.TIMELINE_SEARCH_WORKER) {
    var index = null, loading = null, latestQuery = null;
    var answer = function (query) { root.postMessage({ type: 3, data: { items: index.search(query) } }); };
    var loadDocs = function () {
      return fetch(new URL(root.SEARCH_DOCS, root.location.href).href)
        .then(function (response) {
          if (!response.ok) throw new Error(response.status + " " + response.url);
          return response.json();
        })
        .then(function (data) {
          index = new Index(data.docs, root.SEARCH_LANG);
          answer(latestQuery);
        })
        .catch(function (error) {
          loading = null;  // the next query tries again
          root.postMessage({ type: 3, data: { items: [] } });
          throw error;
        });
    };
    root.addEventListener("message", function (event) {
      var message = event.data;
      if (message.type === 0) {
        if (message.data.docs && message.data.docs.length) index = new Index(message.data.docs, root.SEARCH_LANG);
        root.postMessage({ type: 1 });
      } else if (message.type === 2) {
        if (index) return answer(message.data);
        // Material sends the (empty) box's value on every page load: no reason to fetch anything yet.
        if (!String(message.data).trim()) return root.postMessage({ type: 3, data: { items: [] } });
        latestQuery = message.data;  // queries typed while the documents load: answer the last one
        if (!loading && root.SEARCH_DOCS) loading = loadDocs();
      }
    });
  }
})(typeof self !== "undefined" ? self : this);
