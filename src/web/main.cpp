// The browser app: SDL2 window with a WebGL2 (OpenGL ES 3) context, Dear ImGui, and the App.
// One emscripten main loop; each frame steps a running experiment for a few milliseconds.
// The URL hash mirrors the page state; the page's JS API (attnlab.app*) reads it back.
#include <SDL.h>
#include <SDL_opengles2.h>
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "ui/app.hpp"
#include "ui/theme.hpp"

namespace {

// Work per frame while an experiment runs. The slice adapts to what the rest of a frame costs
// (drawing, the browser, waiting for vsync): about 2.5x that, so computing gets most of the time
// while the page keeps redrawing at 25 fps or more. Bounds in seconds.
// A whole-paper reproduction, or any run that has gone on for more than 3 s, is a batch job with
// its own progress: it may take up to 100 ms per frame (10 fps), which in software-rendered
// browsers nearly halves its wall time; short runs keep 25 fps or more.
constexpr double kMinSlice = 0.008, kMaxSlice = 0.040, kMaxBatchSlice = 0.100, kLongRun = 3.0;
double g_busy_since = 0.0;
double g_slice = kMinSlice;
double g_last_frame_start = 0.0;

SDL_Window* g_window = nullptr;
SDL_GLContext g_gl = nullptr;
attnlab::ui::App* g_app = nullptr;
std::string g_last_hash, g_last_status;
float g_font_scale = 1.0f;

EM_JS(void, js_set_hash, (const char* hash), {
  const h = "#" + UTF8ToString(hash);
  if (window.location.hash !== h) history.replaceState(null, "", h);
});
EM_JS(char*, js_get_hash, (), {
  const h = window.location.hash.substring(1);
  const len = lengthBytesUTF8(h) + 1;
  const p = _malloc(len);
  stringToUTF8(h, p, len);
  return p;
});
EM_JS(void, js_set_status, (const char* text), {
  const el = document.getElementById("status");
  if (el) el.textContent = UTF8ToString(text);
});
EM_JS(void, js_on_hash_change, (), {
  window.addEventListener("hashchange", () => Module.appLoadHash(window.location.hash.substring(1)));
});
// A hidden file input: the chosen file's text goes to Module.appLoadData (the App's load_data).
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
        const error = Module.appLoadData(await file.text());
        if (error) console.warn("Attention Lab: " + error);
      }
      input.value = "";
    });
    document.body.appendChild(input);
  }
  input.click();
});
// Exports: a download of `text`, and the full-state link on the clipboard (with a visible fallback).
EM_JS(void, js_download, (const char* name, const char* mime, const char* text), {
  const blob = new Blob([UTF8ToString(text)], {type: UTF8ToString(mime)});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = UTF8ToString(name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
});
EM_JS(void, js_share, (const char* hash), {
  const url = window.location.origin + window.location.pathname + "#" + UTF8ToString(hash);
  const status = document.getElementById("status");
  const done = (text) => { if (status) status.textContent = text; };
  if (navigator.clipboard && window.isSecureContext)
    navigator.clipboard.writeText(url).then(() => done("Link copied: " + url), () => window.prompt("Copy this link:", url));
  else
    window.prompt("Copy this link:", url);
});
EM_JS(void, js_mark_ready, (), {
  document.body.dataset.ready = "1";
  if (Module.onAppReady) Module.onAppReady();
});

void sync_canvas_size() {
  // The canvas follows the window; its backing store is device pixels (sharp on high-DPI).
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  int w = static_cast<int>(css_w), h = static_cast<int>(css_h);
  int cur_w = 0, cur_h = 0;
  SDL_GetWindowSize(g_window, &cur_w, &cur_h);
  if (w > 0 && h > 0 && (w != cur_w || h != cur_h)) SDL_SetWindowSize(g_window, w, h);
}

void adapt_slice(double frame_start) {
  if (g_last_frame_start > 0.0) {
    const double other = (frame_start - g_last_frame_start) - g_slice;  // time not spent computing
    const bool long_run = g_busy_since > 0.0 && frame_start - g_busy_since > kLongRun;
    const double ceiling = g_app->batch_running() || long_run ? kMaxBatchSlice : kMaxSlice;
    const double wanted = std::min(ceiling, std::max(kMinSlice, 2.5 * other));
    g_slice = 0.7 * g_slice + 0.3 * wanted;  // smoothed, so the frame rate does not oscillate
  }
  g_last_frame_start = frame_start;
}

void main_loop() {
  const double frame_start = emscripten_get_now() / 1000.0;
  if (g_app->busy()) {
    if (g_busy_since == 0.0) g_busy_since = frame_start;
    adapt_slice(frame_start);
  } else {
    g_last_frame_start = 0.0, g_slice = kMinSlice, g_busy_since = 0.0;
  }
  sync_canvas_size();
  SDL_Event event;
  while (SDL_PollEvent(&event)) ImGui_ImplSDL2_ProcessEvent(&event);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  const ImGuiIO& io = ImGui::GetIO();
  g_app->frame(io.DisplaySize.x, io.DisplaySize.y, g_slice);
  ImGui::Render();
  int fb_w = 0, fb_h = 0;
  SDL_GL_GetDrawableSize(g_window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.08f, 0.08f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SDL_GL_SwapWindow(g_window);

  const std::string hash = g_app->hash();
  if (hash != g_last_hash) js_set_hash(hash.c_str()), g_last_hash = hash;
  const std::string status = g_app->status_text();
  if (status != g_last_status) js_set_status(status.c_str()), g_last_status = status;
}

// The page's JS API: read the state back, drive it from tests and course pages.
std::string app_hash() { return g_app->hash(); }
std::string app_csv() { return g_app->csv(); }
std::string app_json() { return g_app->json(); }
std::string app_state() { return attnlab::ui::to_string(g_app->state()); }
double app_progress() { return g_app->progress(); }
std::string app_load_hash(const std::string& hash) {
  const std::string error = g_app->load_hash(hash);
  g_last_hash = g_app->hash();
  if (error.empty()) js_set_hash(g_last_hash.c_str());
  return error;
}
void app_run() { g_app->run(); }
std::string app_inspector_json() { return g_app->inspector_json(); }
void app_reproduce(bool paper_trials) { g_app->start_reproduction(paper_trials); }
std::string app_reproduction_json() { return g_app->reproduction_json(); }
std::string app_load_data(const std::string& json) { return g_app->load_data(json); }
void app_download(const std::string& kind) { g_app->download(kind); }
void app_share() { g_app->share(); }
std::string app_run_button() {
  const float* r = g_app->run_button_rect();
  char buf[96];
  std::snprintf(buf, sizeof buf, "{\"x\":%g,\"y\":%g,\"w\":%g,\"h\":%g}", r[0], r[1], r[2], r[3]);
  return buf;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_page) {
  emscripten::function("appHash", &app_hash);
  emscripten::function("appCsv", &app_csv);
  emscripten::function("appJson", &app_json);
  emscripten::function("appState", &app_state);
  emscripten::function("appProgress", &app_progress);
  emscripten::function("appLoadHash", &app_load_hash);
  emscripten::function("appRun", &app_run);
  emscripten::function("appRunButton", &app_run_button);
  emscripten::function("appInspectorJson", &app_inspector_json);
  emscripten::function("appReproduce", &app_reproduce);
  emscripten::function("appReproductionJson", &app_reproduction_json);
  emscripten::function("appLoadData", &app_load_data);
  emscripten::function("appDownload", &app_download);
  emscripten::function("appShare", &app_share);
}

int main() {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  g_window = SDL_CreateWindow("Attention Lab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1280, 800,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  g_gl = g_window ? SDL_GL_CreateContext(g_window) : nullptr;
  if (!g_gl) {
    std::fprintf(stderr, "WebGL2 context: %s\n", SDL_GetError());
    EM_ASM({ if (Module.onWebGLMissing) Module.onWebGLMissing(); });
    return 1;
  }
  SDL_GL_MakeCurrent(g_window, g_gl);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  // Fonts are rasterised at device resolution and scaled back, so text is sharp on high-DPI.
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  g_font_scale = dpr < 1.0f ? 1.0f : dpr;
  ImFontConfig config;
  config.SizePixels = 15.0f * g_font_scale;
  // DejaVu Sans, subset at build time; the ranges match cmake/web_app.cmake.
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0391, 0x03C9, 0x2010, 0x2027, 0x2190, 0x2193,
                                   0x2212, 0x2212, 0x2264, 0x2265, 0};
  if (!io.Fonts->AddFontFromFileTTF("/fonts/ui-font.ttf", 15.0f * g_font_scale, &config, ranges))
    io.Fonts->AddFontDefault(&config);
  io.FontGlobalScale = 1.0f / g_font_scale;
  attnlab::ui::apply_imgui_style(1.0f);
  ImGui_ImplSDL2_InitForOpenGL(g_window, g_gl);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  static attnlab::ui::App app;
  g_app = &app;
  app.set_file_picker(&js_open_file_picker);
  app.set_exporters(&js_download, &js_share);
  char* hash = js_get_hash();
  if (hash && *hash) app.load_hash(hash);
  std::free(hash);
  js_on_hash_change();
  js_mark_ready();
  emscripten_set_main_loop(main_loop, 0, true);
  return 0;
}
