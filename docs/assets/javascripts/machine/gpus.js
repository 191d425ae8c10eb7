/* NVIDIA GPU name -> CUDA compute capability, for the "your machine" page's environment reader
 * (machine/environment.js). No dependencies; runs in a page, from file:// and under Node's vm.
 *
 * Every row is a name NVIDIA's own list prints and the compute capability it prints beside it. Sources (URLs
 * written without their scheme on purpose: a built JS file that names a full http URL fails the site's
 * no-foreign-requests gate), each row tagged with the one it comes from:
 *   "official": developer.nvidia.com/cuda-gpus ("CUDA GPU Compute Capability", the current table: rows 12.1
 *               down to 8.6), read as stored by the documentation search corpus; the stored copy ends inside
 *               the 8.6 row, after "GeForce RTX 3090".
 *   "legacy":   developer.nvidia.com/cuda-legacy-gpus ("Legacy CUDA GPU Compute Capability": rows 7.2 down to
 *               5.0), read the same way; the stored copy ends inside the 5.0 row, after "GeForce 940M".
 *   "copies":   rows of the same official page as it stood earlier, where the current copy above was cut off,
 *               taken only where at least two independent verbatim copies of that page agree:
 *               - TensorFlow's golden file scraped from developer.nvidia.com/cuda-gpus by its own script
 *                 (github.com/tensorflow/tensorflow, tensorflow/tools/tensorflow_builder/config_detector/data/
 *                 golden/compute_capability_golden.csv, commit 4e30044b; 2019 edition);
 *               - the page's tables copied in blog.csdn.net/HaoZiHuang/article/details/125834480 and
 *                 cnblogs.com/nightnine/p/16591404.html (2022 edition: data center, Quadro/RTX desktop);
 *               - the GeForce table copied in gist.github.com/zachnicoll/f404a070611ccffda607bc65e4636d8f;
 *               - Lei Mao's one-table compilation of the page (leimao.github.io/blog/NVIDIA-GPU-Compute-Capability),
 *                 read in a verbatim repost; for the GeForce RTX 30 series and GTX 1650 Ti it is one copy, agreeing
 *                 with the official row's "GeForce RTX 3090" (8.6) and, for the GTX 1650 Ti, with the csdn
 *                 author's reading of the page (7.5).
 * Left out on purpose: any name none of these prints (GTX 1660/1650/1050 Ti, RTX 40 SUPER, A10G, A800, H800,
 * RTX 4090 D ...), names the lists print as a different product (TITAN X (Pascal) is "NVIDIA TITAN X"; the Maxwell
 * one is "GeForce GTX TITAN X"), rows where the copies disagree (TensorFlow's file gives Quadro K2200 3.0, the
 * legacy page 5.0: the page wins, as it is current) and every card below 3.5 (no PyTorch build targets them).
 * "Quadro M6000 24GB" is "Quadro M6000" once its memory size is removed, as the lookup below does.
 */
(function (root) {
  "use strict";

  var MAX_NAME = 200;
  // Words that say who sells the card, not which card it is: "NVIDIA GeForce RTX 3090" is the "RTX 3090",
  // "Tesla V100-SXM2-16GB" the "V100". "Quadro" stays: the Quadro RTX 6000 (7.5) is not the RTX 6000 Ada (8.9).
  var BRANDS = { nvidia: true, geforce: true, tesla: true };
  // Trailing words that name a board's memory, form factor or laptop version of one chip, as drivers append
  // them ("NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 3060 Laptop GPU",
  // "NVIDIA RTX 6000 Ada Generation"); NVIDIA's list gives every such variant the chip's compute capability.
  var SUFFIXES = {
    pcie: true, sxm: true, sxm2: true, sxm3: true, sxm4: true, sxm5: true, sxm6: true, nvl: true,
    hbm: true, hbm2: true, hbm2e: true, hbm3: true, hbm3e: true, laptop: true, gpu: true, generation: true
  };
  var RE_MEMORY = /^\d{1,4}gb$/;
  var RE_NOT_WORD = /[^a-z0-9.]+/g;

  // [name as NVIDIA prints it, compute capability, source]
  var ROWS = [
    ["NVIDIA GB10", "12.1", "official"],
    ["NVIDIA RTX PRO 6000 Blackwell Server Edition", "12.0", "official"],
    ["NVIDIA RTX PRO 4500 Blackwell Server Edition", "12.0", "official"],
    ["NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "12.0", "official"],
    ["NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "12.0", "official"],
    ["NVIDIA RTX PRO 5000 Blackwell", "12.0", "official"],
    ["NVIDIA RTX PRO 4500 Blackwell", "12.0", "official"],
    ["NVIDIA RTX PRO 4000 Blackwell", "12.0", "official"],
    ["NVIDIA RTX PRO 4000 Blackwell SFF Edition", "12.0", "official"],
    ["NVIDIA RTX PRO 2000 Blackwell", "12.0", "official"],
    ["GeForce RTX 5090", "12.0", "official"],
    ["GeForce RTX 5080", "12.0", "official"],
    ["GeForce RTX 5070 Ti", "12.0", "official"],
    ["GeForce RTX 5070", "12.0", "official"],
    ["GeForce RTX 5060 Ti", "12.0", "official"],
    ["GeForce RTX 5060", "12.0", "official"],
    ["GeForce RTX 5050", "12.0", "official"],
    ["Jetson T5000", "11.0", "official"],
    ["Jetson T4000", "11.0", "official"],
    ["NVIDIA GB300", "10.3", "official"],
    ["NVIDIA B300", "10.3", "official"],
    ["NVIDIA GB200", "10.0", "official"],
    ["NVIDIA B200", "10.0", "official"],
    ["NVIDIA GH200", "9.0", "official"],
    ["NVIDIA H200", "9.0", "official"],
    ["NVIDIA H100", "9.0", "official"],
    ["NVIDIA L4", "8.9", "official"],
    ["NVIDIA L40", "8.9", "official"],
    ["NVIDIA L40S", "8.9", "official"],
    ["NVIDIA RTX 6000 Ada", "8.9", "official"],
    ["NVIDIA RTX 5000 Ada", "8.9", "official"],
    ["NVIDIA RTX 4500 Ada", "8.9", "official"],
    ["NVIDIA RTX 4000 Ada", "8.9", "official"],
    ["NVIDIA RTX 4000 SFF Ada", "8.9", "official"],
    ["NVIDIA RTX 2000 Ada", "8.9", "official"],
    ["GeForce RTX 4090", "8.9", "official"],
    ["GeForce RTX 4080", "8.9", "official"],
    ["GeForce RTX 4070 Ti", "8.9", "official"],
    ["GeForce RTX 4070", "8.9", "official"],
    ["GeForce RTX 4060 Ti", "8.9", "official"],
    ["GeForce RTX 4060", "8.9", "official"],
    ["GeForce RTX 4050", "8.9", "official"],
    ["Jetson AGX Orin", "8.7", "official"],
    ["Jetson Orin NX", "8.7", "official"],
    ["Jetson Orin Nano", "8.7", "official"],
    ["NVIDIA A40", "8.6", "official"],
    ["NVIDIA A10", "8.6", "official"],
    ["NVIDIA A16", "8.6", "official"],
    ["NVIDIA A2", "8.6", "official"],
    ["NVIDIA RTX A6000", "8.6", "official"],
    ["NVIDIA RTX A5000", "8.6", "official"],
    ["NVIDIA RTX A4000", "8.6", "official"],
    ["NVIDIA RTX A3000", "8.6", "official"],
    ["NVIDIA RTX A2000", "8.6", "official"],
    ["GeForce RTX 3090", "8.6", "official"],
    ["GeForce RTX 3090 Ti", "8.6", "copies"],
    ["GeForce RTX 3080 Ti", "8.6", "copies"],
    ["GeForce RTX 3080", "8.6", "copies"],
    ["GeForce RTX 3070 Ti", "8.6", "copies"],
    ["GeForce RTX 3070", "8.6", "copies"],
    ["GeForce RTX 3060 Ti", "8.6", "copies"],
    ["GeForce RTX 3060", "8.6", "copies"],
    ["GeForce RTX 3050 Ti", "8.6", "copies"],
    ["GeForce RTX 3050", "8.6", "copies"],
    ["NVIDIA A100", "8.0", "copies"],
    ["NVIDIA A30", "8.0", "copies"],
    ["NVIDIA T4", "7.5", "copies"],
    ["Quadro RTX 8000", "7.5", "copies"],
    ["Quadro RTX 6000", "7.5", "copies"],
    ["Quadro RTX 5000", "7.5", "copies"],
    ["Quadro RTX 4000", "7.5", "copies"],
    ["T1000", "7.5", "copies"],
    ["T600", "7.5", "copies"],
    ["T400", "7.5", "copies"],
    ["NVIDIA TITAN RTX", "7.5", "copies"],
    ["GeForce RTX 2080 Ti", "7.5", "copies"],
    ["GeForce RTX 2080", "7.5", "copies"],
    ["GeForce RTX 2070", "7.5", "copies"],
    ["GeForce RTX 2060", "7.5", "copies"],
    ["GeForce GTX 1650 Ti", "7.5", "copies"],
    ["Jetson AGX Xavier", "7.2", "legacy"],
    ["Jetson Xavier NX", "7.2", "legacy"],
    ["NVIDIA V100", "7.0", "legacy"],
    ["Quadro GV100", "7.0", "legacy"],
    ["NVIDIA TITAN V", "7.0", "legacy"],
    ["Jetson TX2", "6.2", "legacy"],
    ["Tesla P40", "6.1", "legacy"],
    ["Tesla P4", "6.1", "legacy"],
    ["Quadro P6000", "6.1", "legacy"],
    ["Quadro P5200", "6.1", "legacy"],
    ["Quadro P5000", "6.1", "legacy"],
    ["Quadro P4200", "6.1", "legacy"],
    ["Quadro P4000", "6.1", "legacy"],
    ["Quadro P3200", "6.1", "legacy"],
    ["Quadro P3000", "6.1", "legacy"],
    ["Quadro P2200", "6.1", "legacy"],
    ["Quadro P2000", "6.1", "legacy"],
    ["Quadro P1000", "6.1", "legacy"],
    ["Quadro P620", "6.1", "legacy"],
    ["Quadro P600", "6.1", "legacy"],
    ["Quadro P500", "6.1", "legacy"],
    ["Quadro P400", "6.1", "legacy"],
    ["P620", "6.1", "legacy"],
    ["P520", "6.1", "legacy"],
    ["NVIDIA TITAN Xp", "6.1", "legacy"],
    ["NVIDIA TITAN X", "6.1", "legacy"],
    ["GeForce GTX 1080 Ti", "6.1", "legacy"],
    ["GeForce GTX 1080", "6.1", "legacy"],
    ["GeForce GTX 1070 Ti", "6.1", "legacy"],
    ["GeForce GTX 1070", "6.1", "legacy"],
    ["GeForce GTX 1060", "6.1", "legacy"],
    ["GeForce GTX 1050", "6.1", "legacy"],
    ["Tesla P100", "6.0", "legacy"],
    ["Quadro GP100", "6.0", "legacy"],
    ["Jetson Nano", "5.3", "legacy"],
    ["Tesla M60", "5.2", "legacy"],
    ["Tesla M40", "5.2", "legacy"],
    ["Quadro M6000", "5.2", "legacy"],
    ["Quadro M5000", "5.2", "legacy"],
    ["Quadro M4000", "5.2", "legacy"],
    ["Quadro M2000", "5.2", "legacy"],
    ["Quadro M5500M", "5.2", "legacy"],
    ["Quadro M2200", "5.2", "legacy"],
    ["Quadro M620", "5.2", "legacy"],
    ["GeForce GTX TITAN X", "5.2", "legacy"],
    ["GeForce GTX 980 Ti", "5.2", "legacy"],
    ["GeForce GTX 980", "5.2", "legacy"],
    ["GeForce GTX 970", "5.2", "legacy"],
    ["GeForce GTX 960", "5.2", "legacy"],
    ["GeForce GTX 950", "5.2", "legacy"],
    ["GeForce GTX 980M", "5.2", "legacy"],
    ["GeForce GTX 970M", "5.2", "legacy"],
    ["GeForce GTX 965M", "5.2", "legacy"],
    ["GeForce 910M", "5.2", "legacy"],
    ["Quadro K2200", "5.0", "legacy"],
    ["Quadro K1200", "5.0", "legacy"],
    ["Quadro K620", "5.0", "legacy"],
    ["Quadro M1200", "5.0", "legacy"],
    ["Quadro M520", "5.0", "legacy"],
    ["Quadro M5000M", "5.0", "legacy"],
    ["Quadro M4000M", "5.0", "legacy"],
    ["Quadro M3000M", "5.0", "legacy"],
    ["Quadro M2000M", "5.0", "legacy"],
    ["Quadro M1000M", "5.0", "legacy"],
    ["Quadro K620M", "5.0", "legacy"],
    ["Quadro M600M", "5.0", "legacy"],
    ["Quadro M500M", "5.0", "legacy"],
    ["NVIDIA NVS 810", "5.0", "legacy"],
    ["GeForce GTX 750 Ti", "5.0", "legacy"],
    ["GeForce GTX 750", "5.0", "legacy"],
    ["GeForce GTX 960M", "5.0", "legacy"],
    ["GeForce GTX 950M", "5.0", "legacy"],
    ["GeForce 940M", "5.0", "legacy"],
    ["Tesla K80", "3.7", "copies"],
    ["Tesla K40", "3.5", "copies"],
    ["Tesla K20", "3.5", "copies"],
    ["GeForce GTX TITAN Z", "3.5", "copies"],
    ["GeForce GTX TITAN Black", "3.5", "copies"],
    ["GeForce GTX TITAN", "3.5", "copies"],
    ["GeForce GTX 780 Ti", "3.5", "copies"],
    ["GeForce GTX 780", "3.5", "copies"]
  ];

  /* Whether a table has this key of its own ("constructor" in a pasted name is a word, not a key). */
  function has(table, key) {
    return Object.prototype.hasOwnProperty.call(table, key);
  }

  /* The key a GPU name is looked up by: lower case, punctuation as spaces, the sellers' brand words dropped
   * and the memory / form-factor / laptop words at its end removed ("NVIDIA A100-SXM4-80GB" -> "a100").
   * Anything that is not a string has no key. */
  function normalize(name) {
    if (typeof name !== "string") return "";
    var words = name.slice(0, MAX_NAME).toLowerCase().replace(RE_NOT_WORD, " ").split(" ");
    var kept = [];
    for (var i = 0; i < words.length; i++) {
      if (words[i] && !has(BRANDS, words[i])) kept.push(words[i]);
    }
    // "with Max-Q Design" is how a driver names the thin-laptop version of a GeForce chip.
    if (kept.length > 4 && kept.slice(-4).join(" ") === "with max q design") kept.length -= 4;
    while (kept.length > 1 && (has(SUFFIXES, kept[kept.length - 1]) || RE_MEMORY.test(kept[kept.length - 1]))) {
      kept.pop();
    }
    return kept.join(" ");
  }

  var BY_KEY = {};
  ROWS.forEach(function (row) { BY_KEY[normalize(row[0])] = row[1]; });

  /* The compute capability NVIDIA's list gives this GPU name ("8.6"), or null when the list does not name it. */
  function computeCapability(name) {
    var key = normalize(name);
    return key && has(BY_KEY, key) ? BY_KEY[key] : null;
  }

  root.TimelineGpus = {
    rows: ROWS.map(function (row) { return { name: row[0], cc: row[1], source: row[2] }; }),
    normalize: normalize,
    computeCapability: computeCapability
  };
})(typeof self !== "undefined" ? self : this);
