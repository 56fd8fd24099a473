// The page's side of the browser app (EM_JS): the address bar, the live region, file picker,
// downloads, clipboard, new tabs, the viewer's theme preference. Declared in web/browser.hpp.
#include "web/browser.hpp"

#include <emscripten.h>

// The hash follows the page state. A change the user made becomes a new history entry (so Back
// returns to the previous state), but edits less than a second apart share one entry: dragging a
// slider does not flood the history. Inside an iframe the entry is always replaced: the course
// page's Back button must stay the course page's.
EM_JS(void, js_set_hash, (const char* hash, bool new_entry), {
  const text = UTF8ToString(hash);
  const h = text ? "#" + text : "";  // the start page has no hash: the address ends without '#'
  Module.appliedHash = text;
  if (window.location.hash === h && (text || !window.location.href.endsWith("#"))) return;
  const url = h || window.location.pathname + window.location.search;
  const now = performance.now();
  if (new_entry && window.self === window.top && now - (Module.lastHistoryPush || -1e9) > 1000) {
    history.pushState(null, "", url);
    Module.lastHistoryPush = now;
  } else {
    history.replaceState(null, "", url);
  }
});
// The link's own hash. WordPress appends "#?secret=..." to the iframe address of an oEmbed (its
// wp-embed.js then resizes the frame on {message: "height", value, secret}): the secret is kept for
// js_install_embed_sizing and cut off here, so the link reads as it was written.
EM_JS(void, js_install_link_reader, (), {
  Module.linkHash = () => {
    const all = window.location.hash.substring(1);
    const cut = all.indexOf("#?secret=");
    if (cut < 0) return all;
    Module.embedSecret = all.substring(cut + 9).replace(/[^a-zA-Z0-9]/g, "");
    return all.substring(0, cut);
  };
});
EM_JS(char*, js_get_hash, (), {
  const h = Module.linkHash();
  const len = lengthBytesUTF8(h) + 1;
  const p = _malloc(len);
  stringToUTF8(h, p, len);
  return p;
});
EM_JS(void, js_set_status, (const char* text), {
  const el = document.getElementById("status");
  if (el) el.textContent = UTF8ToString(text);
});
// Back / Forward and edited addresses: apply the link (once, whichever event comes first).
EM_JS(void, js_on_hash_change, (), {
  const apply = () => {
    const h = Module.linkHash();
    if (h === Module.appliedHash) return;
    Module.appliedHash = h;
    const error = Module.appLoadHash(h);
    if (error) console.warn("Attention Lab: " + error);
  };
  window.addEventListener("hashchange", apply);
  window.addEventListener("popstate", apply);
});
EM_JS(char*, js_page_url, (), {
  const u = window.location.origin + window.location.pathname;
  const len = lengthBytesUTF8(u) + 1;
  const p = _malloc(len);
  stringToUTF8(u, p, len);
  return p;
});
// The viewer's preference as a theme= value (lab/link_keys.hpp): "contrast" (prefers-contrast
// wins), "light" or "dark". The caller frees it.
EM_JS(char*, js_preferred_theme, (), {
  const name = window.matchMedia("(prefers-contrast: more)").matches ? "contrast"
             : window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  const len = lengthBytesUTF8(name) + 1;
  const p = _malloc(len);
  stringToUTF8(name, p, len);
  return p;
});
// A hidden file input: the chosen file's text goes to Module.appLoadData (the App's load_data),
// unless its size is refused first (Module.appCheckDataSize): a huge file is never read.
EM_JS(void, js_open_file_picker, (), {
  let input = document.getElementById("attnlab-file");
  if (!input) {
    input = document.createElement("input");
    input.type = "file";
    input.accept = ".json,application/json";
    input.id = "attnlab-file";
    input.style.display = "none";
    input.addEventListener("change", async () => {
      const file = input.files[0];
      if (file) {
        const error = Module.appCheckDataSize(file.size) || Module.appLoadData(await file.text());
        if (error) console.warn("Attention Lab: " + error);
      }
      input.value = "";
    });
    document.body.appendChild(input);
  }
  input.click();
});
// Downloads: every file leaves through Module.saveBlob (installed once by js_install_save_blob).
EM_JS(void, js_install_save_blob, (), {
  Module.saveBlob = (blob, name) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  };
});
EM_JS(void, js_download, (const char* name, const char* mime, const char* text), {
  Module.saveBlob(new Blob([UTF8ToString(text)], {type: UTF8ToString(mime)}), UTF8ToString(name));
});
// A figure's PNG (a plot, a heatmap, a paper figure): the browser rasterises the same SVG at twice
// its size (sharp in slides).
EM_JS(void, js_svg_as_png, (const char* name_c, const char* svg_c), {
  const name = UTF8ToString(name_c), svg = UTF8ToString(svg_c);
  const img = new Image();
  img.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = img.width * 2;
    canvas.height = img.height * 2;
    const ctx = canvas.getContext("2d");
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    canvas.toBlob((blob) => Module.saveBlob(blob, name), "image/png");
  };
  img.onerror = () => console.warn("Attention Lab: the figure could not be rasterised");
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
});
// Copies `text` (a link, an iframe snippet) to the clipboard and says so in the live region; where
// the clipboard is unavailable (plain http), a prompt shows the text to copy by hand.
EM_JS(void, js_copy_text, (const char* text_c, const char* what_c), {
  const text = UTF8ToString(text_c), what = UTF8ToString(what_c);
  const status = document.getElementById("status");
  Module.lastCopied = text;
  const done = () => { if (status) status.textContent = what + " copied to the clipboard."; };
  if (navigator.clipboard && window.isSecureContext)
    navigator.clipboard.writeText(text).then(done, () => window.prompt("Copy this:", text));
  else
    window.prompt("Copy this:", text);
});
EM_JS(void, js_open_url, (const char* url), {
  window.open(UTF8ToString(url), "_blank", "noopener");
});
// Inside an iframe the lab asks its host for a useful height, since course sites may strip the
// iframe's width and height (leaving 300 x 150): the WordPress message (with its secret) and a plain
// {type: "attnlab:height", height} for any host page that listens. Sent on load and on resize.
EM_JS(void, js_install_embed_sizing, (), {
  if (window.self === window.top) return;
  Module.linkHash();  // keeps WordPress's secret, if the address has one
  const send = () => {
    const width = document.documentElement.clientWidth;
    const height = Math.round(width < 750 ? 760 : Math.min(900, Math.max(480, width * 2 / 3)));
    Module.requestedHeight = height;
    const post = (message) => { try { window.parent.postMessage(message, "*"); } catch (e) {} };
    post({type: "attnlab:height", height: height});
    if (Module.embedSecret) post({message: "height", value: height, secret: Module.embedSecret});
  };
  send();
  window.addEventListener("resize", send);
});
EM_JS(void, js_mark_ready, (), {
  document.body.dataset.ready = "1";
  performance.mark("attnlab-first-frame");
  if (Module.onAppReady) Module.onAppReady();
});
