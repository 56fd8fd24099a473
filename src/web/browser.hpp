// What the browser app asks of the page (JavaScript, defined with EM_JS in browser.cpp).
// Strings cross as UTF-8; the char* results are malloc'd and freed by the caller.
#pragma once

extern "C" {
void js_set_hash(const char* hash, bool new_entry);  // a new history entry, or replace the current one
void js_install_link_reader();  // Module.linkHash(): the address's hash without WordPress's "#?secret="
char* js_get_hash();
void js_install_embed_sizing();  // in an iframe: tells the host page the height the lab wants
void js_set_status(const char* text);  // the screen-reader live region
void js_on_hash_change();              // Back / Forward and edited addresses call Module.appLoadHash
char* js_page_url();                   // origin + path, without the hash
char* js_preferred_theme();            // "dark", "light" or "contrast" (theme=); the caller frees it
void js_open_file_picker();            // the chosen file's text goes to Module.appLoadData
void js_install_save_blob();
void js_download(const char* name, const char* mime, const char* text);
void js_svg_as_png(const char* name, const char* svg);
void js_copy_text(const char* text, const char* what);
void js_open_url(const char* url);
void js_mark_ready();  // the first frame is drawn
}
