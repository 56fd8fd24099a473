// What the page's JS API (app_bindings.cpp) asks of the main loop (main.cpp): the App, a redraw
// after a change from outside the canvas, and the address bar following the App.
#pragma once
#include "ui/app.hpp"

namespace attnlab::web {

ui::App& app();
void request_redraw();       // something outside the canvas changed the App
void publish_page_state();   // the address, theme and live region follow the App now
void address_follows_link(); // after a link was applied: the address replaces its entry with the App's
}  // namespace attnlab::web
