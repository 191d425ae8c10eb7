/* Bilingual search engine for the PyTorch Release Timeline (no dependencies; runs in a worker, in Node
 * for tests, and from file:// through the iframe-worker shim).
 *
 * Why not Material's lunr setup: it segments a typed Chinese query against the index vocabulary and never
 * looks up the last word, matches only prefixes of jieba words (系统 misses 存储系统), ORs terms so a page
 * with one word ranks like one with all, and mixes both languages' results. Here:
 *  - The index is built at build time, in two parts per language (scripts/search_index.py): a first part
 *    small enough for a slow network (every document's title, keywords and flags; the postings of title
 *    words, versions and API names), then the text part (the documents' text, every word's postings). The
 *    reader's language loads when search opens or on the first query, which the first part answers; the
 *    full text streams in behind it. Results already on screen keep their places when it arrives (new
 *    ones follow them) until the query changes. The other language's loads after that.
 *  - Chinese matches as character bigrams (and single characters), found by scanning the documents, so
 *    any sub-word matches and word order does not matter; a query's units all present ranks first
 *    (coverage), then by tf-idf.
 *  - English words are lower-cased and lightly stemmed the same way on both sides (training = trained);
 *    the last word typed also matches as a prefix (as-you-type); a word of five letters or more that the
 *    index does not know matches the words one typo away (complie = compile). Versions and API names
 *    (1.6, torch.jit.fork, channels_last) are kept whole as well as split into parts.
 *  - Question words are dropped when anything else is left (which version added AMP = AMP); the release
 *    that first lists a feature outranks later mentions of it; "latest"/最新 finds the newest release.
 *  - Results show a short snippet around the matched words, not the whole section.
 *  - Results of the reader's language come first; the other language's follow, marked.
 *  - A query naming two releases and an upgrade ("upgrade 1.13 to 2.0", "从 1.13 升级到 2.6") first offers
 *    the upgrade view with both filled in (the index's `upgrade` entry, scripts/search_index.py).
 *  - A query naming one release and a compatibility word ("which python does 2.15 support", "2.15 支持哪些
 *    python") first offers that release's row of the compatibility matrix, opened at the row; an install question
 *    naming a release ("怎么安装 1.12 的 CPU 版本") its install section, with the compute platform it names chosen
 *    (releases/1.12/?compute=cpu#install: the picker reads ?compute=).
 *  - An API name glossed in Chinese ("inference_mode 推理模式") is one thing said twice: a document with the
 *    whole API name covers the query.
 */
(function (root) {
  "use strict";

  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
  var WORD = /[a-z0-9_]+(?:[.\-][a-z0-9_]+)*/g;
  // Shared with scripts/search_index.py: a posting's value is count * 4 + 2 (in keywords) + 1 (in title).
  var TITLE_BOOST = 8;
  var KEYWORD_BOOST = 16;
  var LENGTH_PIVOT = 150;
  var FLAG_INTRODUCES = 1;
  var RELEASE_BOOST = 1.5;     // a release's own page is the authority on its facts
  var INTRODUCES_BOOST = 1.5;  // the release that introduced a feature, above later mentions
  var TITLE_MATCH_BOOST = 1;   // up to double for a title the query covers whole
  var PREFIX_FACTOR = 0.6;     // a word completed from what was typed counts less than the word itself
  var TYPO_FACTOR = 0.5;
  var OPTIONAL_FACTOR = 0.3;   // a question word the document holds: a small tie-breaker
  var MAX_EXPANSIONS = 50;
  // Every item sent is cloned twice and rendered on the reader's main thread: Material draws the first 10
  // groups at once and then measures the list (a forced layout), on every key. 20 pages of 3 entries (the
  // page and its two best sections) keep a later key near 40 ms at 4x CPU (50 x 6 took about 48 ms).
  var MAX_GROUPS = 20;         // result groups (pages) per query
  var MAX_GROUP_ITEMS = 3;     // entries per group: the page and its best sections
  var MAX_SPANS = 16;          // matches looked for per text and mark: a snippet shows a few
  var SNIPPET_COLUMNS = 160;   // about two lines in the search dialog; a Han character is two columns
  var SNIPPET_LEAD = 30;       // columns of context before the first matched word
  var OTHER_LANGUAGE_DELAY = 200;  // ms after the reader's language's full text before the other language's index loads
  var RELEASE_PAGE = /(^|\/)releases\/\d+\.\d+(\/|\.html)$/;  // hosted and offline URLs
  // What a question asks for, and the documents that answer it (flags set at build time,
  // overrides/hooks/lazy_search_index.py): "how to install 1.8" wants a release's install section; "which
  // version supports Python 3.12" the end-of-support page and the compatibility matrix, not a feature
  // that happens to say "supports Python 3.12".
  var FLAG_INSTALL = 2;
  var FLAG_SUPPORT = 4;
  var FLAG_RELEASE_ROW = 8;   // a release's row of the compatibility matrix
  var INTENT_BOOST = 3;
  var INSTALL_QUESTION = /安装|\b(?:install|installing|installation|installed|pip|conda)\b/;
  var SUPPORT_QUESTION = /支持|兼容|适配|\b(?:support|supports|supported|compatible|compatibility)\b/;
  var NAMES_A_VERSION = /\d+\.\d+/;
  // A question about one release's compatibility ("which python does 2.15 support", "2.15 支持哪些 python",
  // "torchvision for 1.12"): its matrix row answers it, opened at the row.
  var COMPAT_QUESTION = /支持|兼容|适配|配套|对应|搭配|\b(?:python|cuda|rocm|cudnn|torchvision|torchaudio|c\+\+|cxx|support|supports|supported|compatible|compatibility|works? with|pair(?:s|ed)? with)\b/;
  // Versions of something else than PyTorch: "python 3.12", "cuda 12.1", "torchvision 0.15", "cu118".
  var VERSION_OF_OTHER = /(?:python|py|cuda|cu|rocm|cudnn|torchvision|torchaudio|gcc|glibc|macos|ubuntu|nccl|numpy|c\+\+)\s*v?$/;
  // The compute platform an install question names, as the picker's values (scripts/views/release/install.py):
  // cpu, cuda-11.8, rocm-6.2.4; "cu118" is CUDA 11.8.
  var CPU_WORDS = /\bcpu\b|仅\s*cpu|没有\s*gpu|无\s*gpu|\bno gpu\b/;
  var CUDA_CHOICE = /\bcuda\s*v?(\d+\.\d+)?|\bcu(\d+)(\d)\b/;  // cu113 is 11.3, cu92 9.2, cu130 13.0
  var ROCM_CHOICE = /\brocm\s*v?(\d+(?:\.\d+)*)?/;

  // Words that say what kind of answer is wanted, not what it is about; dropped when anything else is left.
  var STOP_WORDS = {};
  ("a an and are be been by can could did do does first for from get had has have how i in is of on or " +
   "pytorch release releases released the to version versions was were what when where which who why with " +
   "add added adds introduce introduced introduces").split(" ").forEach(function (w) { STOP_WORDS[w] = true; });
  var HAN_STOP = new RegExp(["哪一个版本", "哪个版本", "哪些版本", "哪一版", "哪一个", "哪个", "哪些", "哪里", "什么时候",
    "什么", "何时", "怎么样", "怎么", "怎样", "如何", "为什么", "是否", "版本", "加入", "引入", "新增", "添加", "推出",
    "首次", "第一次", "开始", "哪", "是", "在", "的", "了", "吗", "呢"].join("|"), "g");

  // "Now" in a question asks what holds today, which the support page's "today" section answers: such a word
  // in a query is read as 今天 / today (现在 would otherwise also lose its 在 to the question words above).
  // 今天 in a query also matches a document's 现在/目前/当前/如今, a little below 今天 itself.
  var NOW_WORDS = /现在|目前|当前|如今|眼下|当下/g;
  var NOW_WORDS_EN = /\b(?:now|currently|nowadays|presently|at the moment|at present|these days)\b/g;
  var TODAY = "今天";
  // Words a Chinese query unit also finds in documents, a little below the unit itself.
  var HAN_ALSO = { "今天": ["现在", "目前", "当前", "如今"] };
  var ALSO_FACTOR = 0.5;

  // An upgrade question: an upgrade word anywhere, or two versions joined by "to", an arrow or 到.
  var UPGRADE_WORDS = /升级|迁移|对比|比较|区别|差异|变化|upgrad|migrat|compar|differ|changes|breaking|\bvs\b/;
  var VERSION_PAIR = /\d\s*(?:to|->|→|=>|到|至|~)\s*v?\d/;
  var QUERY_VERSION = /(?:^|[^\d.])v?(\d+\.\d+)(?:\.\d+)?(?![\d.]*\d)/g;

  function normalize(text) {
    return text.normalize("NFKC").toLowerCase().replace(/\u200b/g, "");
  }

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  /* A light English stemmer, applied identically to indexed and typed words (scripts/search_index.py). */
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

  /* The normalized query without question words, unless nothing else would be left: {text, stops}. */
  function withoutStopWords(norm) {
    var stops = [];
    function drop(w) { stops.push(w); return " "; }
    var stripped = norm.replace(HAN_STOP, drop).replace(WORD, function (w) { return STOP_WORDS[w] ? drop(w) : w; });
    HAN.lastIndex = 0;
    var left = HAN.test(stripped) || new RegExp(WORD.source).test(stripped);
    HAN.lastIndex = 0;
    return left ? { text: stripped, stops: stops } : { text: norm, stops: [] };
  }

  /* The query as units to match: Chinese bigrams (or a lone character), and per Latin word the word (or, for
   * a compound such as torch.jit.fork, the whole and each part). Each unit: {key, word, ...}. Question words
   * become optional units: a document need not hold them, but ranks a little higher when it does
   * ("compare releases": the page about comparing releases before one that compares something). */
  function queryUnits(query, options) {
    var units = [], seen = Object.create(null), words = [];
    var text = normalize(query).replace(NOW_WORDS, TODAY).replace(NOW_WORDS_EN, "today");
    var split = options && options.keepStopWords ? { text: text, stops: [] } : withoutStopWords(text);
    var norm = split.text;
    var endsOpen = !/\s$/.test(query);
    function add(unit) { if (!seen[unit.key]) { seen[unit.key] = true; units.push(unit); } }
    split.stops.forEach(function (w) {
      if (/^[a-z]/.test(w)) add({ key: "~" + w, word: w, token: stem(w), raw: w, optional: true });
      else for (var i = 0; i + 1 < w.length; i++) add({ key: "~" + w.slice(i, i + 2), word: w, han: w.slice(i, i + 2), optional: true });
    });
    norm.replace(HAN, function (run) {
      if (run.length === 1) add({ key: run, word: run, han: run });
      for (var i = 0; i + 1 < run.length; i++) add({ key: run.slice(i, i + 2), word: run, han: run.slice(i, i + 2) });
      return " ";
    }).replace(WORD, function (word, offset, all) {
      words.push({ word: word, last: offset + word.length === all.trimEnd().length });
      return " ";
    });
    words.forEach(function (w) {
      var parts = w.word.split(/[.:\-_]/).filter(Boolean);
      var prefix = w.last && endsOpen;
      if (parts.length > 1) {
        add({ key: w.word, word: w.word, token: w.word, whole: true, prefix: prefix });
        // A version's parts (the 1 and 6 of 1.6) mean nothing alone; an API name's do (jit in torch.jit.fork).
        if (/^[\d.]+$/.test(w.word)) return;
        parts.forEach(function (p) { add({ key: w.word + "#" + p, word: w.word, token: stem(p), raw: p, part: true }); });
      } else {
        add({ key: w.word, word: w.word, token: stem(w.word), raw: w.word, prefix: prefix, typo: /^[a-z]{5,}$/.test(w.word) });
      }
    });
    return units;
  }

  /* Is b one edit (insertion, deletion, substitution or swap of neighbours) away from a? */
  function oneEditApart(a, b) {
    if (a === b || Math.abs(a.length - b.length) > 1) return false;
    var i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    if (a.length === b.length) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  /* One language's index, as scripts/search_index.py writes it: whole, or its first part (`part` "head":
   * the documents' texts are empty and the postings those of titles, keywords, versions and API names),
   * which `addText` completes. */
  function Index(data) {
    this.lang = data.lang;
    this.upgrade = data.upgrade || null;  // {location, title, text, versions} of the upgrade view
    this.releases = data.releases || (data.upgrade && data.upgrade.versions) || [];  // the release versions
    this.install = data.install || {};  // version -> the compute choices of its install picker
    this.docs = data.docs;  // [location, title, text, token count, flags, keywords?]
    this.complete = data.part !== "head";
    this.titleUnits = [];  // per document, computed when first needed
    this.pageDocs = Object.create(null);  // page location -> its own document
    for (var i = 0; i < this.docs.length; i++) if (this.docs[i][0].indexOf("#") < 0) this.pageDocs[this.docs[i][0]] = i;
    this.setPostings(data.tokens, data.postings);
  }

  Index.prototype.setPostings = function (tokens, postings) {
    this.tokens = tokens;
    this.postings = postings;
    this.decoded = Object.create(null);
    this.scanned = Object.create(null);
    this.plainWords = null;
  };

  /* The text part of the same build: each document's text, and the postings of every word. */
  Index.prototype.addText = function (data) {
    if (data.count !== this.docs.length || data.texts.length !== this.docs.length) {
      throw new Error("search: the " + data.lang + " text part holds " + data.texts.length + " documents, its first part " + this.docs.length);
    }
    for (var i = 0; i < this.docs.length; i++) this.docs[i][2] = data.texts[i];
    this.setPostings(data.tokens, data.postings);
    this.complete = true;
  };

  Index.prototype.lowerBound = function (token) {
    var t = this.tokens, lo = 0, hi = t.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (t[mid] < token) lo = mid + 1; else hi = mid; }
    return lo;
  };

  /* [[doc, value], ...] of a Latin token ([] when unknown), decoded on first use. */
  Index.prototype.postingsOf = function (token) {
    if (this.decoded[token]) return this.decoded[token];
    var at = this.lowerBound(token), list = [];
    if (this.tokens[at] === token) {
      var numbers = this.postings[at].split(","), doc = 0;
      for (var i = 0; i < numbers.length; i += 2) {
        doc += parseInt(numbers[i], 36);
        list.push([doc, parseInt(numbers[i + 1], 36)]);
      }
    }
    return (this.decoded[token] = list);
  };

  /* Tokens starting with `prefix` (a word being typed), the prefix itself left out. */
  Index.prototype.expand = function (prefix) {
    var out = [];
    for (var i = this.lowerBound(prefix); i < this.tokens.length && out.length < MAX_EXPANSIONS; i++) {
      var t = this.tokens[i];
      if (t.lastIndexOf(prefix, 0) !== 0) break;
      if (t !== prefix) out.push(t);
    }
    return out;
  };

  /* Tokens one typo away from `word` (letters only). */
  Index.prototype.typos = function (word) {
    if (!this.plainWords) this.plainWords = this.tokens.filter(function (t) { return /^[a-z]{4,}$/.test(t); });
    return this.plainWords.filter(function (t) { return oneEditApart(word, t); }).slice(0, MAX_EXPANSIONS);
  };

  /* [[doc, value], ...] of a Chinese character or bigram: the documents are scanned, not indexed. */
  Index.prototype.scan = function (han) {
    if (this.scanned[han]) return this.scanned[han];
    var list = [];
    for (var d = 0; d < this.docs.length; d++) {
      var doc = this.docs[d], text = doc[2], count = 0;
      for (var at = text.indexOf(han); at >= 0; at = text.indexOf(han, at + han.length)) count++;
      var value = Math.min(count, 63) * 4 + (doc[5] && doc[5].indexOf(han) >= 0 ? 2 : 0) + (doc[1].indexOf(han) >= 0 ? 1 : 0);
      if (value) list.push([d, value]);
    }
    return (this.scanned[han] = list);
  };

  Index.prototype.weight = function (doc, value) {
    var count = value >> 2;
    var w = (value & 1 ? TITLE_BOOST : 0) + (value & 2 ? KEYWORD_BOOST : 0);
    if (count) w += (1 + Math.log(count)) / Math.sqrt(1 + this.docs[doc][3] / LENGTH_PIVOT);
    return w;
  };

  /* What one unit looks up: [{token, list, factor, mark}] (mark: a regular expression source for a word, or
   * {han} for Chinese, for highlighting). */
  Index.prototype.lookups = function (unit) {
    var self = this, out = [];
    function add(token, factor, mark) {
      var list = self.postingsOf(token);
      if (list.length) out.push({ token: token, list: list, factor: factor, mark: mark });
    }
    if (unit.han) {
      [unit.han].concat(HAN_ALSO[unit.han] || []).forEach(function (han) {
        var list = self.scan(han);
        if (list.length) out.push({ token: han, list: list, factor: han === unit.han ? 1 : ALSO_FACTOR, mark: { han: han } });
      });
      return out;
    }
    if (unit.whole) add(unit.token, 1, escapeRegExp(unit.word));
    else add(unit.token, 1, "(?:" + escapeRegExp(unit.raw) + "|" + escapeRegExp(unit.token) + ")[a-z]*");
    if (unit.prefix && /^[a-z]/.test(unit.word) && unit.word.length >= 2) {
      this.expand(unit.whole ? unit.word : unit.raw).forEach(function (t) { add(t, PREFIX_FACTOR, escapeRegExp(t) + "[a-z0-9_]*"); });
    }
    if (unit.typo && !out.length) {
      var seen = Object.create(null);
      this.typos(unit.token).concat(unit.raw !== unit.token ? this.typos(unit.raw) : []).forEach(function (t) {
        if (!seen[t]) { seen[t] = true; add(t, TYPO_FACTOR, escapeRegExp(t) + "[a-z]*"); }
      });
    }
    return out;
  };

  /* How much of a document's title the query's tokens cover (0..1; a compound's parts count half): a
   * section titled exactly what was asked (torch.compile) outranks one that mentions it (torch.compile on
   * Python 3.12). Question words do not count. */
  Index.prototype.titleCoverage = function (doc, tokens) {
    var units = this.titleUnits[doc] || (this.titleUnits[doc] = queryUnits(this.docs[doc][1] + " "));
    var total = 0, covered = 0, parts = Object.create(null);
    units.forEach(function (u) {
      if (u.optional) return;
      var weight = u.part ? 0.5 : 1;
      total += weight;
      if (tokens[u.han || u.token]) covered += weight;
      if (u.part) (parts[u.word] = parts[u.word] || []).push(!!tokens[u.token]);
    });
    // Every part of a compound typed as words of its own ("channels last" for Channels-last) covers it whole.
    units.forEach(function (u) {
      if (u.whole && !tokens[u.token] && parts[u.word] && parts[u.word].every(Boolean)) covered += 1;
    });
    return total ? covered / total : 0;
  };

  /* The flags of the documents that answer the kind of question asked (0 for none): an install question,
   * or a support question that names a version. */
  function answeringFlags(query) {
    var norm = normalize(query), flags = 0;
    if (INSTALL_QUESTION.test(norm)) flags |= FLAG_INSTALL;
    if (SUPPORT_QUESTION.test(norm) && NAMES_A_VERSION.test(norm)) flags |= FLAG_SUPPORT;
    return flags;
  }

  /* Every document matching the query, best first: [{index, score, coverage, matched: {unitKey: true}}].
   * `answering`: flags of the documents that answer this kind of question (answeringFlags). */
  Index.prototype.match = function (units, answering) {
    var n = this.docs.length, self = this, hits = Object.create(null), total = 0, marks = Object.create(null);
    var tokens = Object.create(null);
    // Optional units last: they only add to documents the others found.
    units.filter(function (u) { return !u.optional; }).concat(units.filter(function (u) { return u.optional; })).forEach(function (unit) {
      var unitWeight = unit.part ? 0.5 : 1, seen = Object.create(null);
      if (!unit.optional) total += unitWeight;
      var lookups = self.lookups(unit), ceiling = Infinity;
      lookups.forEach(function (lookup) {
        if (unit.optional) {
          var factor = OPTIONAL_FACTOR * Math.log(1 + n / lookup.list.length);
          return lookup.list.forEach(function (p) { if (hits[p[0]]) hits[p[0]].score += factor * self.weight(p[0], p[1]); });
        }
        (marks[unit.key] || (marks[unit.key] = [])).push(lookup.mark);
        tokens[lookup.token] = true;
        // A completion or a typo's neighbour is rarer than the word typed, so its idf would outweigh the
        // word itself: it may weigh no more than the word (the first lookup, when the index knows it).
        var idf = Math.min(Math.log(1 + n / lookup.list.length), ceiling);
        if (lookup.factor === 1) ceiling = idf;
        lookup.list.forEach(function (p) {
          var h = hits[p[0]] || (hits[p[0]] = { index: p[0], score: 0, covered: 0, matched: Object.create(null) });
          if (!seen[p[0]]) { seen[p[0]] = true; h.covered += unitWeight; h.matched[unit.key] = true; }
          if (p[1] & 1) h.titled = true;
          h.score += unitWeight * lookup.factor * idf * self.weight(p[0], p[1]);
        });
      });
    });
    // A query that names an API and glosses it in Chinese ("inference_mode 推理模式") says one thing twice: a
    // document holding the whole API name covers it, whether or not it uses the same Chinese words.
    var api = units.filter(function (u) { return u.whole && /[_.]/.test(u.word) && !/^[\d.]+$/.test(u.word); });
    var glossed = api.length && units.some(function (u) { return u.han && !u.optional; });
    var out = [];
    for (var k in hits) {
      var h = hits[k], doc = this.docs[h.index];
      h.coverage = total ? h.covered / total : 0;
      if (glossed && api.every(function (u) { return h.matched[u.key]; })) {
        var latin = units.filter(function (u) { return !u.han && !u.optional; });
        var weight = 0, covered = 0;
        latin.forEach(function (u) { var w = u.part ? 0.5 : 1; weight += w; if (h.matched[u.key]) covered += w; });
        h.coverage = Math.max(h.coverage, weight ? covered / weight : 0);
      }
      if (h.titled) {  // only a title holding some of the query can be covered by it
        var title = this.titleCoverage(h.index, tokens);
        h.score *= 1 + TITLE_MATCH_BOOST * title * title;
      }
      if (RELEASE_PAGE.test(doc[0])) h.score *= RELEASE_BOOST;
      if (doc[4] & FLAG_INTRODUCES) h.score *= INTRODUCES_BOOST;
      if (doc[4] & answering) h.score *= INTENT_BOOST;
      out.push(h);
    }
    // Documents holding every part of the query come first; those with less than half are left out.
    var best = out.reduce(function (m, h) { return Math.max(m, h.coverage); }, 0);
    out = out.filter(function (h) { return h.coverage >= Math.min(0.5, best); });
    out.sort(function (a, b) { return b.coverage - a.coverage || b.score - a.score; });
    return { hits: out, marks: marks, answering: answering };
  };

  /* What to mark in a document, from the marks of the query units it matched: Chinese strings, and one
   * regular expression for the words. Documents matching the same units share one (`cache`, per query). */
  function marker(units, matched, marks, cache) {
    var key = units.map(function (u) { return matched[u.key] ? 1 : 0; }).join("");
    if (cache[key]) return cache[key];
    var han = [], words = [];
    units.forEach(function (u) {
      if (!matched[u.key] || !marks[u.key]) return;
      marks[u.key].forEach(function (m) { if (m.han) han.push(m.han); else words.push(m); });
    });
    return (cache[key] = { han: han, words: words.length ? new RegExp("\\b(?:" + words.join("|") + ")\\b", "gi") : null });
  }

  /* [start, end, what] of the first marked pieces of `text` (enough to place and mark a snippet): Chinese
   * bigrams may overlap (分布|布式|式训|训练 marks all five characters of 分布式训练), words match whole. */
  function spans(text, mark) {
    var out = [], found;
    mark.han.forEach(function (han) {
      for (var at = text.indexOf(han), n = 0; at >= 0 && n < MAX_SPANS; at = text.indexOf(han, at + 1), n++) out.push([at, at + han.length, han]);
    });
    if (mark.words) {
      mark.words.lastIndex = 0;
      for (var n = 0; n < MAX_SPANS && (found = mark.words.exec(text)); n++) {
        if (!found[0]) { mark.words.lastIndex++; continue; }
        out.push([found.index, found.index + found[0].length, found[0].toLowerCase()]);
      }
    }
    // In text order (the snippet's window is looked for along it), when more than one mark found them.
    return mark.han.length + (mark.words ? 1 : 0) > 1 ? out.sort(function (a, b) { return a[0] - b[0]; }) : out;
  }

  /* Display columns of a UTF-16 code unit: two for CJK and other wide characters. */
  function columns(code) {
    return code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6)) ? 2 : 1;
  }

  /* Columns are counted only near the matches: a snippet is a couple of lines, and counting a long
   * section's columns up to its last match (the compatibility matrix is 15,000 characters) took most of a
   * query's time. */

  /* The last index `to` such that text[from, to) fits in `width` columns. */
  function fitColumns(text, from, width) {
    var at = from, used = 0;
    while (at < text.length) {
      var w = columns(text.charCodeAt(at));
      if (used + w > width) break;
      used += w;
      at++;
    }
    return at;
  }

  /* The first index `to` such that text[from, to) takes at least `width` columns (or the text's end). */
  function reachColumns(text, from, width) {
    var at = from, used = 0;
    while (at < text.length && used < width) used += columns(text.charCodeAt(at++));
    return at;
  }

  /* The first index `from` such that text[from, to) takes at most `width` columns. */
  function backColumns(text, to, width) {
    var at = to, used = 0;
    while (at > 0) {
      var w = columns(text.charCodeAt(at - 1));
      if (used + w > width) break;
      used += w;
      at--;
    }
    return at;
  }

  /* HTML of text[start, end) with its spans marked. */
  function markup(text, start, end, found) {
    var out = "", at = start;
    // Merge overlapping and touching spans into runs, so 分布式训练 is one <mark>, not four.
    var runs = [];
    found.forEach(function (s) {
      var a = Math.max(s[0], start), b = Math.min(s[1], end);
      if (a >= b) return;
      var last = runs[runs.length - 1];
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else runs.push([a, b]);
    });
    runs.forEach(function (r) {
      out += escapeHtml(text.slice(at, r[0])) + "<mark>" + escapeHtml(text.slice(r[0], r[1])) + "</mark>";
      at = r[1];
    });
    return out + escapeHtml(text.slice(at, end));
  }

  /* Where the snippet starts: shortly before the match that opens the window holding the most distinct
   * matched words (the first such match). */
  function snippetStart(text, found) {
    var best = 0, anchor = 0;
    for (var s = 0; s < found.length; s++) {
      var limit = fitColumns(text, found[s][0], SNIPPET_COLUMNS - SNIPPET_LEAD), seen = Object.create(null), distinct = 0;
      for (var f = s; f < found.length && Math.min(found[f][1], text.length) <= limit; f++) {
        if (!seen[found[f][2]]) { seen[found[f][2]] = true; distinct++; }
      }
      if (distinct > best) { best = distinct; anchor = found[s][0]; }
    }
    var start = backColumns(text, anchor, SNIPPET_LEAD);
    var space = text.slice(start, anchor).indexOf(" ");  // begin at a word when one starts close by
    return start > 0 && space >= 0 ? start + space + 1 : start;
  }

  /* HTML of a short window of the text around its matches (its start when nothing matched), marked. */
  function snippet(text, found) {
    var start = snippetStart(text, found);
    var end = reachColumns(text, start, SNIPPET_COLUMNS);
    var tail = Math.max(start, end - 30), cut = text.slice(tail, end).lastIndexOf(" ");  // end after a word
    if (end < text.length && cut >= 0) end = tail + cut;
    return (start > 0 ? "…" : "") + markup(text, start, end, found) + (end < text.length ? "…" : "");
  }

  var OTHER_LABEL = { zh: "English", en: "中文" };

  /* The engine over the loaded indexes: Material's result shape, reader's language first. */
  function Engine(lang) {
    this.lang = lang || "zh";
    this.indexes = {};
  }

  /* A language's index, whole or its first part; or the text part that completes its first part. */
  Engine.prototype.add = function (data) {
    if (data.part === "text") {
      if (!this.indexes[data.lang]) throw new Error("search: the " + data.lang + " text part came before its first part");
      this.indexes[data.lang].addText(data);
    } else {
      this.indexes[data.lang] = new Index(data);
    }
  };

  Engine.prototype.has = function (lang) { return !!this.indexes[lang]; };

  Engine.prototype.complete = function (lang) { return !!this.indexes[lang] && this.indexes[lang].complete; };

  /* The upgrade view for a query that asks about going from one release to another, or null. Only the
   * releases the index knows count (3.12 in "python 3.12 to 3.13" is not a PyTorch release). */
  Engine.prototype.upgradeShortcut = function (query) {
    var index = this.indexes[this.lang], upgrade = index && index.upgrade;
    if (!upgrade) return null;
    var norm = normalize(query), versions = [], match;
    QUERY_VERSION.lastIndex = 0;
    while ((match = QUERY_VERSION.exec(norm))) {
      if (upgrade.versions.indexOf(match[1]) >= 0 && versions.indexOf(match[1]) < 0) versions.push(match[1]);
    }
    if (versions.length !== 2 || !(UPGRADE_WORDS.test(norm) || VERSION_PAIR.test(norm))) return null;
    function fill(template) { return escapeHtml(template.replace("{from}", versions[0]).replace("{to}", versions[1])); }
    return {
      location: upgrade.location + "?from=" + versions[0] + "&to=" + versions[1],
      title: fill(upgrade.title),
      text: "<p>" + fill(upgrade.text) + "</p>",
      score: Infinity,
      terms: {}
    };
  };

  /* The PyTorch releases a query names: versions the index knows as releases and that are not the version of
   * something else (python 3.12, cuda 12.1, torchvision 0.15). */
  function releasesNamed(norm, releases) {
    var found = [], match;
    QUERY_VERSION.lastIndex = 0;
    while ((match = QUERY_VERSION.exec(norm))) {
      var before = norm.slice(0, match.index + match[0].indexOf(match[1])).replace(/\s+$/, "");
      if (VERSION_OF_OTHER.test(before)) continue;
      if (releases.indexOf(match[1]) >= 0 && found.indexOf(match[1]) < 0) found.push(match[1]);
    }
    return found;
  }

  /* The install picker's choice an install question names, among `choices` (e.g. ["default", "cpu", "cuda-11.8",
   * "rocm-6.2"]); "" when it names none (or one the release does not offer). Without a version, CUDA and ROCm mean
   * the newest the release offers. */
  function computeChoice(norm, choices) {
    if (!choices || !choices.length) return "";
    function has(value) { return choices.indexOf(value) >= 0 ? value : ""; }
    function newest(prefix) {
      var all = choices.filter(function (c) { return c.lastIndexOf(prefix, 0) === 0; });
      return all.length ? all[all.length - 1] : "";
    }
    if (CPU_WORDS.test(norm)) return has("cpu");
    var rocm = ROCM_CHOICE.exec(norm);
    if (rocm) {
      if (!rocm[1]) return newest("rocm-");
      return has("rocm-" + rocm[1]) || choices.filter(function (c) { return c.lastIndexOf("rocm-" + rocm[1] + ".", 0) === 0; })[0] || "";
    }
    var cuda = CUDA_CHOICE.exec(norm);
    if (cuda) {
      var version = cuda[1] || (cuda[2] ? cuda[2] + "." + cuda[3] : "");
      return version ? has("cuda-" + version) : newest("cuda-");
    }
    return "";
  }

  /* A question about one release: its install section (with the compute platform the question names chosen:
   * ?compute=cpu#install, which the picker reads) for an install question; its row of the compatibility matrix,
   * opened at the row, for a compatibility question. {doc, location, title} or null. */
  Index.prototype.releaseAnswer = function (query) {
    var norm = normalize(query), named = releasesNamed(norm, this.releases);
    if (named.length !== 1) return null;
    var version = named[0], slug = version.replace(/\./g, "-");
    var page = this.releasePage(version);
    if (INSTALL_QUESTION.test(norm)) {
      var install = page !== null && this.docs.findIndex(function (d) { return d[0] === page + "#install"; });
      if (page === null || install < 0) return null;
      var choice = computeChoice(norm, this.install[version]);
      var label = choice ? " · " + choice.replace(/^cpu$/, "CPU").replace(/^cuda-/, "CUDA ").replace(/^rocm-/, "ROCm ") : "";
      return {
        doc: install,
        location: page + (choice ? "?compute=" + encodeURIComponent(choice) : "") + "#install",
        title: this.docs[this.pageDocs[page]][1].split(/[:：]/)[0] + " · " + this.docs[install][1] + label
      };
    }
    if (!COMPAT_QUESTION.test(norm)) return null;
    for (var d = 0; d < this.docs.length; d++) {
      var doc = this.docs[d];
      if (doc[4] & FLAG_RELEASE_ROW && doc[0].slice(-("#compat-" + slug).length) === "#compat-" + slug) {
        return { doc: d, location: doc[0], title: doc[1], page: page };
      }
    }
    return null;
  };

  /* The location of a release's own page (hosted: releases/2.15/, offline: releases/2.15.html or …/index.html). */
  Index.prototype.releasePage = function (version) {
    var own = new RegExp("(^|/)releases/" + escapeRegExp(version) + "(/|/index\\.html|\\.html)$");
    for (var location in this.pageDocs) if (own.test(location)) return location;
    return null;
  };

  /* Groups (one per page) of items, pages of the reader's language first. */
  Engine.prototype.search = function (query, limit) {
    var units = queryUnits(query), self = this, groups = [], answering = answeringFlags(query);
    limit = limit || MAX_GROUPS;
    var shortcut = this.upgradeShortcut(query);
    if (shortcut) groups.push([shortcut]);
    if (!units.length) return groups;
    var order = [this.lang].concat(Object.keys(this.indexes).filter(function (l) { return l !== self.lang; }).sort());
    order.forEach(function (lang) {
      var index = self.indexes[lang];
      if (!index || groups.length >= limit) return;
      var result = index.match(units, answering);
      var answer = !shortcut && lang === self.lang ? index.releaseAnswer(query) : null;
      if (answer) {
        // The answer first, as a group of its own (Material heads a group with it: the link opens it there).
        var hit = result.hits.filter(function (h) { return h.index === answer.doc; })[0] ||
          { index: answer.doc, score: 0, coverage: 1, matched: Object.create(null), unmatched: true };
        var entry = item(index, hit, units, result.marks, Object.create(null), null);
        entry.location = answer.location;
        entry.title = escapeHtml(answer.title);
        entry.score = Math.max(entry.score, 1);
        groups.push([entry]);
        result.hits = result.hits.filter(function (h) { return h.index !== answer.doc; });
      }
      var found = pageGroups(index, result, units, lang !== self.lang ? OTHER_LABEL[self.lang] : null, limit - groups.length);
      if (answer && answer.page) {
        // Then the release's own page, the authority on the rest of its facts.
        var at = found.findIndex(function (g) { return pageOf(g[0].location) === answer.page; });
        var own = at >= 0 ? found.splice(at, 1)[0] :
          [item(index, { index: index.pageDocs[answer.page], score: 0, coverage: 0, matched: Object.create(null), unmatched: true }, units, result.marks, Object.create(null), null)];
        found.unshift(own);
      }
      groups = groups.concat(found);
    });
    return groups;
  };

  function pageOf(location) { return location.split("#")[0]; }

  /* The groups of a new answer to the query already answered with `shown` (more of the index arrived in
   * between): the groups on screen keep their places, with what the new answer says of them (or as they
   * were, when it no longer has them), and the new answer's other groups follow in its order. Reordering
   * under the reader's eyes while they read or reach for a result would be worse than a ranking that
   * waits for their next key. */
  function keepShownOrder(shown, groups) {
    var fresh = Object.create(null), placed = Object.create(null), out = [];
    groups.forEach(function (g) { fresh[pageOf(g[0].location)] = g; });
    shown.forEach(function (g) {
      var page = pageOf(g[0].location);
      if (placed[page]) return;
      placed[page] = true;
      out.push(fresh[page] || g);
    });
    groups.forEach(function (g) { if (!placed[pageOf(g[0].location)]) out.push(g); });
    return out.slice(0, Math.max(shown.length, MAX_GROUPS));
  }

  /* Material's groups: a page's entry first (even when only its sections matched), then its sections. */
  function pageGroups(index, result, units, otherLabel, limit) {
    var markers = Object.create(null);
    var byPage = Object.create(null), pages = [];
    result.hits.forEach(function (h) {
      var page = pageOf(index.docs[h.index][0]);
      if (!byPage[page]) { byPage[page] = []; pages.push(page); }
      byPage[page].push(h);
    });
    // Only the groups that will be shown get their items (snippets are most of a query's time).
    return pages.slice(0, limit).map(function (page) {
      var hits = byPage[page], own = index.pageDocs[page];
      var pageHit = hits.filter(function (h) { return h.index === own; })[0];
      if (!pageHit && own !== undefined) pageHit = { index: own, score: 0, coverage: 0, matched: Object.create(null) };
      hits = hits.filter(function (h) { return h !== pageHit; });
      var answer = result.answering ? hits.filter(function (h) { return index.docs[h.index][4] & result.answering; })[0] : null;
      if (answer) hits = [answer].concat(hits.filter(function (h) { return h !== answer; }));
      if (pageHit) hits = [pageHit].concat(hits);
      var items = hits.slice(0, MAX_GROUP_ITEMS).map(function (h) { return item(index, h, units, result.marks, markers, otherLabel, own); });
      // Material folds the sections scored below the group's first entry (the page's) under "more on this
      // page": the section that answers the question must stay in view.
      if (answer && pageHit && items[1].score < items[0].score) items[0].score = items[1].score;
      return items;
    });
  }

  /* Which query words a document holds, for Material's "Missing:" line and on-page highlighting: a Chinese
   * run when any of its bigrams matched, a compound when it matched whole or every part of it did. */
  function termsFound(units, matched) {
    var terms = Object.create(null), parts = Object.create(null);
    units.forEach(function (u) {
      if (u.optional) return;
      if (u.part) {
        var p = parts[u.word] || (parts[u.word] = { all: true });
        p.all = p.all && !!matched[u.key];
      } else {
        terms[u.word] = terms[u.word] || !!matched[u.key];
      }
    });
    for (var word in parts) terms[word] = terms[word] || parts[word].all;
    return terms;
  }

  function item(index, h, units, marks, markers, otherLabel, own) {
    var doc = index.docs[h.index], mark = marker(units, h.matched, marks, markers);
    var title = markup(doc[1], 0, doc[1].length, spans(doc[1], mark));
    if (otherLabel) title = '<span class="search-other-language">' + otherLabel + "</span> " + title;
    var text = doc[2] ? "<p>" + snippet(doc[2], spans(doc[2], mark)) + "</p>" : "";
    // An entry shown for its place, not for a match (a group's page, an answer): it claims no word "missing".
    var terms = h.unmatched ? {} : termsFound(units, h.matched);
    var entry = { location: doc[0], title: title, text: text, score: h.score * (0.5 + h.coverage), terms: terms };
    if (own !== undefined && h.index !== own) entry.parent = { location: index.docs[own][0], title: index.docs[own][1] };
    return entry;
  }

  var api = {
    Engine: Engine, Index: Index, queryUnits: queryUnits, stem: stem, normalize: normalize, oneEditApart: oneEditApart,
    keepShownOrder: keepShownOrder, answeringFlags: answeringFlags, releasesNamed: releasesNamed, computeChoice: computeChoice
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.TimelineSearch = api;

  /* Worker side: Material's protocol (SETUP 0 -> READY 1, QUERY 2 -> RESULT 3), "open" from our search box
   * layer when the reader opens search, and {type: "loaded", data: {lang, part}} to it each time a part of
   * an index has been added (the box layer records them on the page: tests and the benchmark wait for the
   * full text; Material ignores message types it does not know). root.SEARCH_LANG and root.SEARCH_INDEX
   * ({lang: {head: URL, text: URL}}, relative to this script) come from the worker file the build writes
   * (overrides/hooks/search_worker.py). Hosted, a part is JSON, fetched; in the offline copy (file://,
   * where this runs in an iframe through the iframe-worker shim and cannot fetch) it is a script that
   * registers itself as TIMELINE_SEARCH_INDEX["zh"] or ["zh.text"].
   *
   * Order: the reader's language's first part, its text, then (after the first answer, and a pause for
   * the page to render it) the other language's. Each arrival answers the latest query again; an answer
   * to the query already on screen keeps the groups shown in their places (keepShownOrder). */
  var SCRIPT_URL = (root.document && root.document.currentScript && root.document.currentScript.src) || (root.location && root.location.href);
  if (typeof root.addEventListener === "function" && typeof root.document === "undefined" || root.TIMELINE_SEARCH_WORKER) {
    var engine = new Engine(root.SEARCH_LANG), latest = "", shown = null, loads = {}, loading = null;
    var own = root.SEARCH_LANG, other = own === "zh" ? "en" : "zh";
    var reply = function () {
      var groups = latest.trim() ? engine.search(latest) : [];
      if (shown && shown.query === latest) groups = keepShownOrder(shown.groups, groups);
      shown = { query: latest, groups: groups };
      root.postMessage({ type: 3, data: { items: groups, query: latest } });  // `query`: which input this answers
    };
    var fetchPart = function (lang, part) {
      var href = new URL(root.SEARCH_INDEX[lang][part], SCRIPT_URL).href;
      if (/\.js$/.test(href)) {
        // A real worker's importScripts is synchronous; the shim's returns a promise.
        return new Promise(function (resolve) { resolve(root.importScripts(href)); })
          .then(function () { return root.TIMELINE_SEARCH_INDEX[part === "head" ? lang : lang + "." + part]; });
      }
      return fetch(href).then(function (response) {
        if (!response.ok) throw new Error(response.status + " " + response.url);
        return response.json();
      });
    };
    // One part, once (a failure is tried again by the next query); on arrival the latest query is answered
    // again with what it adds.
    var load = function (lang, part) {
      var key = lang + "." + part;
      if (!loads[key]) {
        loads[key] = (part === "text" ? load(lang, "head") : Promise.resolve()).then(function () { return fetchPart(lang, part); }).then(function (data) {
          engine.add(data);
          root.postMessage({ type: "loaded", data: { lang: lang, part: part } });
          if (latest.trim()) reply();
        }, function (error) {
          loads[key] = null;
          throw error;
        });
      }
      return loads[key];
    };
    // The reader's language: its first part answers, its text follows at once.
    var loadOwn = function () { return load(own, "head").then(function () { return load(own, "text"); }); };
    var loadAll = function () {
      return load(own, "head").then(function () {
        var text = load(own, "text");
        // Not while the page renders the first results: their time is the reader's.
        return text.then(function () { return new Promise(function (resolve) { root.setTimeout(resolve, OTHER_LANGUAGE_DELAY); }); });
      }).then(function () { return load(other, "text"); }).catch(function (error) {
        if (!engine.has(own)) root.postMessage({ type: 3, data: { items: [], query: latest } });  // no answer to wait for
        throw error;
      });
    };
    root.addEventListener("message", function (event) {
      var message = event.data;
      if (message.type === 0) {
        root.postMessage({ type: 1 });
      } else if (message.type === "open") {
        // The reader opened search (docs/assets/javascripts/search/box.js): load while they type.
        loadOwn().catch(function () {});  // a failure shows when the first query asks again
      } else if (message.type === 2) {
        latest = String(message.data);
        if (engine.has(own)) reply();
        // Material sends the (empty) box's value on every page load: no reason to load anything yet.
        else if (!latest.trim()) reply();
        if (latest.trim() && !loading && !(engine.complete(own) && engine.complete(other))) {
          loading = loadAll().then(function () { loading = null; }, function (error) { loading = null; throw error; });
        }
      }
    });
  }
})(typeof self !== "undefined" ? self : this);
