// The browser app: SDL2 window with a WebGL2 (OpenGL ES 3) context, Dear ImGui, and the App.
// One emscripten main loop; each frame steps a running experiment for a few milliseconds.
// The URL hash mirrors the page state; the page's JS API (attnlab.app*, app_bindings.cpp) reads it
// back through web/page_glue.hpp.
//
// Index of this file
// [SECTION] Globals and WebGL context loss
// [SECTION] Input, canvas size and the time slice
// [SECTION] Drawing on demand and the main loop
// [SECTION] The glue for the page's JS API
// [SECTION] main: SDL, WebGL2, ImGui and the App
#include <SDL.h>
#include <SDL_opengles2.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "imgui_internal.h"
#include "ui/keyboard_focus.hpp"
#include "lab/link_keys.hpp"
#include "ui/app.hpp"
#include "ui/embedded_assets.hpp"
#include "ui/theme.hpp"
#include "web/browser.hpp"
#include "web/page_glue.hpp"
#include "web/worker_pool.hpp"

namespace {

// [SECTION] Globals and WebGL context loss

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
bool g_hash_published = false;  // the first state replaces the address's entry; later ones add entries
float g_font_scale = 1.0f;
bool g_first_frame = true;
bool g_enter_down = false;  // Enter as ImGui has seen it (pressed and not yet released)
attnlab::ThemeChoice g_theme = attnlab::ThemeChoice::Dark;
// WebGL context loss (GPU reset, too many tabs): drawing pauses, computing and results go on; on
// restoration every GL object (ImGui's, the heatmaps' textures) is made again.
bool g_context_lost = false, g_restore_gl = false;

EM_BOOL on_context_lost(int, const void*, void*) {
  g_context_lost = true;
  return EM_TRUE;  // preventDefault: asks the browser to restore the context
}
EM_BOOL on_context_restored(int, const void*, void*) {
  g_context_lost = false;
  g_restore_gl = true;
  return EM_TRUE;
}

void restore_gl_objects() {
  // A whole new renderer backend: 1.86 keeps its buffer sizes across DestroyDeviceObjects, so the
  // new buffers would never be allocated. Deleting the dead handles is harmless.
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplOpenGL3_Init("#version 300 es");
  g_app->forget_gl_objects();  // the widgets upload their textures again on the next draw
  g_restore_gl = false;
}

// [SECTION] Input, canvas size and the time slice

// ImGui 1.86 presses a focused button with Space only; Enter should work too (keyboard users expect
// it), except while a text field has the keyboard, where Enter commits the text.
void map_enter_to_activate() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (g_enter_down) io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
}

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

// ImGui scrolls a window by 5 lines per unit of its MouseWheel: the units that scroll `pixels`.
float wheel_units(float pixels) { return pixels / (5.0f * ImGui::GetFontSize()); }

// The swipe stays with the panel it began on: ImGui sends a wheel to the window under the pointer,
// so while a finger scrolls, the pointer is held where it went down (walk 16: a swipe from the
// results up over the story panel scrolled the story too).
bool g_touch_scrolling = false;
ImVec2 g_touch_anchor;

// A finger dragged over a panel's background scrolls it, as on any phone page (ImGui itself scrolls
// only by wheel). Over a slider or a text field the finger keeps driving that control.
void scroll_by_touch(const SDL_Event& e) {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const bool on_background = g.ActiveId == 0 || (g.ActiveIdWindow && g.ActiveId == g.ActiveIdWindow->MoveId);
  if (!on_background) return;
  int w = 0, h = 0;
  SDL_GetWindowSize(g_window, &w, &h);
  ImGui::GetIO().MouseWheel += wheel_units(e.tfinger.dy * static_cast<float>(h));
  g_touch_scrolling = true;
}

void hold_pointer_while_touch_scrolls() {
  if (g_touch_scrolling) ImGui::GetIO().MousePos = g_touch_anchor;
}

// A wheel notch scrolls a panel by kWheelNotchPixels, about what a browser scrolls a page (walk 12:
// ImGui's one unit a notch, 5 lines or about 75 px, felt slow), and a touchpad's small steps scroll
// by their own share of it (ImGui's backend turns every step, however small, into a whole unit).
// SDL's preciseY is the browser's deltaY in notches (100 px or 3 lines a notch), pointing up.
constexpr float kWheelNotchPixels = 120.0f;
void scroll_by_wheel(const SDL_Event& e) { ImGui::GetIO().MouseWheel += wheel_units(e.wheel.preciseY * kWheelNotchPixels); }

// After a finger lifts, the pointer leaves the canvas for ImGui: a phone has no hover, and a
// tooltip under the finger's last place would stay on screen until the next tap (walk 6). The
// frames since the lift (-1: none since a finger went down or the mouse moved): the tap's release
// is seen over its button in the first of them, so the click still counts.
int g_frames_since_lift = -1;

void lift_pointer_after_touch() {
  if (g_frames_since_lift < 0 || ++g_frames_since_lift <= 2 || ImGui::IsAnyMouseDown()) return;
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}

void pass_event(const SDL_Event& e) {
  // The first arrow key while no control shows the keyboard's frame (the page focused the canvas as
  // it loaded, or a pointer did): in a story step it brings the focus to the prediction and moves
  // nothing else (App::keyboard_arrived).
  const auto is_arrow = [](SDL_Scancode k) {
    return k == SDL_SCANCODE_UP || k == SDL_SCANCODE_DOWN || k == SDL_SCANCODE_LEFT || k == SDL_SCANCODE_RIGHT;
  };
  const bool arrow = e.type == SDL_KEYDOWN && is_arrow(e.key.keysym.scancode);
  if (arrow && !attnlab::ui::keyboard_focus_shown() && g_app->keyboard_arrived()) return;
  if (e.type == SDL_FINGERDOWN) {
    int w = 0, h = 0;
    SDL_GetWindowSize(g_window, &w, &h);
    g_touch_anchor = ImVec2(e.tfinger.x * static_cast<float>(w), e.tfinger.y * static_cast<float>(h));
    g_touch_scrolling = false;
  }
  if (e.type == SDL_FINGERMOTION) scroll_by_touch(e);
  if (e.type == SDL_FINGERUP) g_frames_since_lift = 0, g_touch_scrolling = false;
  if (e.type == SDL_FINGERDOWN || (e.type == SDL_MOUSEMOTION && e.motion.which != SDL_TOUCH_MOUSEID))
    g_frames_since_lift = -1;
  const bool enter = (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP) &&
                     (e.key.keysym.scancode == SDL_SCANCODE_RETURN || e.key.keysym.scancode == SDL_SCANCODE_KP_ENTER);
  if (enter) g_enter_down = e.type == SDL_KEYDOWN;
  if (e.type == SDL_MOUSEWHEEL) {
    scroll_by_wheel(e);
    SDL_Event sideways = e;  // ImGui's backend keeps the horizontal part
    sideways.wheel.y = 0;
    ImGui_ImplSDL2_ProcessEvent(&sideways);
    return;
  }
  ImGui_ImplSDL2_ProcessEvent(&e);
}

// ImGui 1.86 reads keys as up/down states once per frame, so a key pressed and released within
// one frame (a quick tap, synthetic input) would be lost: its release waits for the next frame,
// and so does every event after it, so that keys and typed text keep their order.
void pass_events_to_imgui() {
  static std::vector<SDL_Event> deferred;
  std::vector<SDL_Event> events;
  events.swap(deferred);
  SDL_Event event;
  while (SDL_PollEvent(&event)) events.push_back(event);
  std::vector<SDL_Scancode> pressed;
  for (const SDL_Event& e : events) {
    if (e.type == SDL_KEYDOWN) pressed.push_back(e.key.keysym.scancode);
    const bool same_frame = e.type == SDL_KEYUP &&
                            std::find(pressed.begin(), pressed.end(), e.key.keysym.scancode) != pressed.end();
    if (same_frame || !deferred.empty()) deferred.push_back(e);  // later events wait too: order is kept
    else pass_event(e);
  }
}

// [SECTION] Drawing on demand and the main loop

void draw_frame() {
  int fb_w = 0, fb_h = 0;
  SDL_GL_GetDrawableSize(g_window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SDL_GL_SwapWindow(g_window);
}

// Frames are drawn on demand (docs/design.md, "Frames on demand"). An unchanged canvas keeps its
// last frame, so the page answers at the display's rate while drawing (costly in a
// software-rendered browser) happens only when it shows something new:
// - input draws at once, and every frame after it for kInputRedraw seconds and at least
//   kInputFrames frames: ImGui acts on a key over several frames (Tab moves the focus, a later
//   frame starts the text field's editing, a key tapped within one frame is released in the next),
//   and on a loaded machine 0.6 s held only two or three of them, so a count of frames too;
// - while an item is active (a text field edits, a slider is held) every frame is drawn;
// - a change the screen shows (results, state, a step of the progress bar, another page) draws at
//   once while the page computes itself or is idle, and at most every kComputeRedraw seconds while
//   workers compute, so the student doing nothing leaves the cores to the workers.
void publish_page_state();
constexpr double kInputRedraw = 1.0, kComputeRedraw = 0.25;
constexpr int kInputFrames = 30;
double g_draw_until = 0.0, g_last_draw = 0.0;
int g_input_frames = 0;  // frames still to draw after the last input, whatever the clock says
std::uint64_t g_drawn_stamp = ~0ull;
int g_drawn_width = 0, g_drawn_height = 0;

// Something outside the canvas changed the app (a link, the page API, a loaded file).
void request_redraw() {
  g_draw_until = emscripten_get_now() / 1000.0 + kInputRedraw;
  g_input_frames = kInputFrames;
}

bool frame_needed(double now, bool input) {
  if (input || g_restore_gl) g_draw_until = now + kInputRedraw, g_input_frames = kInputFrames;
  if (ImGui::GetIO().WantTextInput || ImGui::IsAnyItemActive()) return true;
  int w = 0, h = 0;
  SDL_GetWindowSize(g_window, &w, &h);
  const bool resized = w != g_drawn_width || h != g_drawn_height;
  const bool changed = g_app->change_stamp() != g_drawn_stamp;
  // Main-thread computing and an idle page redraw a change at once (the answer's scrolling into
  // view takes several frames: 0.25 s each held it back); workers' results at most 4 times a second.
  const bool on_workers = g_app->busy() && g_app->computing_on_workers();
  return now < g_draw_until || g_input_frames > 0 || resized || g_first_frame ||
         (changed && (!on_workers || now - g_last_draw >= kComputeRedraw));
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
  g_app->compute(g_slice);
  const bool input = SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT) > 0;
  if (!frame_needed(frame_start, input)) {
    publish_page_state();
    return;
  }
  g_last_draw = frame_start;
  if (g_input_frames > 0) --g_input_frames;
  g_drawn_stamp = g_app->change_stamp();
  SDL_GetWindowSize(g_window, &g_drawn_width, &g_drawn_height);
  if (g_restore_gl) restore_gl_objects();
  pass_events_to_imgui();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  hold_pointer_while_touch_scrolls();
  lift_pointer_after_touch();
  map_enter_to_activate();
  ImGui::NewFrame();
  const ImGuiIO& io = ImGui::GetIO();
  g_app->frame(io.DisplaySize.x, io.DisplaySize.y);
  ImGui::Render();
  if (!g_context_lost) draw_frame();  // nothing can be drawn until the browser restores the context
  if (g_first_frame) js_mark_ready(), g_first_frame = false;
  publish_page_state();
}

// The address bar, the theme and the live region follow the app, drawn or not.
void publish_page_state() {
  const std::string hash = g_app->hash();
  if (hash != g_last_hash) js_set_hash(hash.c_str(), g_hash_published), g_last_hash = hash;
  g_hash_published = true;
  const attnlab::ThemeChoice theme = g_app->theme_shown();
  if (theme != g_theme) attnlab::ui::apply_theme(theme), g_theme = theme;
  const std::string status = g_app->status_text();
  if (status != g_last_status) js_set_status(status.c_str()), g_last_status = status;
}

}  // namespace

// [SECTION] The glue for the page's JS API

// The glue the page's JS API (app_bindings.cpp) calls (web/page_glue.hpp).
namespace attnlab::web {
ui::App& app() { return *g_app; }
void request_redraw() { ::request_redraw(); }
void publish_page_state() { ::publish_page_state(); }
void address_follows_link() {
  g_last_hash = g_app->hash();
  js_set_hash(g_last_hash.c_str(), false);
}
}  // namespace attnlab::web

// [SECTION] main: SDL, WebGL2, ImGui and the App

int main() {
  // Keys reach the canvas only while it has the focus: the page's text twin (web/twin.js) takes typing
  // and Tab like any page, and Esc on the canvas hands the focus to it (no keyboard trap).
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
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
  config.FontDataOwnedByAtlas = false;  // the module's own bytes (ui/embedded_assets.hpp), never freed
  if (!io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(attnlab::ui::kUiFont), static_cast<int>(attnlab::ui::kUiFontSize),
                                      15.0f * g_font_scale, &config, ranges))
    io.Fonts->AddFontDefault(&config);
  io.FontGlobalScale = 1.0f / g_font_scale;
  attnlab::ui::apply_imgui_style(1.0f);
  ImGui_ImplSDL2_InitForOpenGL(g_window, g_gl);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  static attnlab::ui::App app;
  g_app = &app;
  app.set_worker_pool(attnlab::web::make_browser_worker_pool(), attnlab::web::default_worker_count());
  app.set_file_picker(&js_open_file_picker);
  char* page_url = js_page_url();
  app.set_exporters(&js_download, &js_copy_text, &js_open_url, page_url);
  std::free(page_url);
  js_install_save_blob();
  app.set_figure_exporter(&js_svg_as_png);
  char* preferred = js_preferred_theme();
  app.set_preferred_theme(attnlab::kThemeTable.decode("theme", preferred));
  std::free(preferred);
  js_install_link_reader();
  js_install_embed_sizing();
  char* hash = js_get_hash();
  // A refused link stays in the address bar (the page shows why), so it can be read and fixed.
  if (hash && *hash && !app.load_hash(hash).empty()) g_last_hash = app.hash();
  std::free(hash);
  js_on_hash_change();
  emscripten_set_webglcontextlost_callback("#canvas", nullptr, EM_TRUE, on_context_lost);
  emscripten_set_webglcontextrestored_callback("#canvas", nullptr, EM_TRUE, on_context_restored);
  emscripten_set_main_loop(main_loop, 0, true);
  return 0;
}
