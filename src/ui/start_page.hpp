// The start page, shown when a link names no experiment and no story: every paper with a story as a card
// (title, authors, the result in one sentence, a small figure computed just now by a quick run),
// each opening its story, and the entry to the free lab. The cards' runs compute on the main
// thread, one after another, between frames.
#pragma once
#include <string>
#include <vector>

#include "ui/preview_run.hpp"

namespace attnlab::ui {

class StartPage {
 public:
  struct Choice {
    bool free_lab = false;
    std::string story;  // the story to open, or ""
  };
  // Advances the cards' figures by about `slice_seconds`.
  void compute(double slice_seconds);
  // Draws the page filling the window; returns what the visitor opened, if anything.
  Choice draw();
  unsigned version() const;  // changes whenever a figure does
  // {"cards": [{"story", "fraction"}]} for tests.
  std::string json() const;

 private:
  void start_figures();
  std::vector<PreviewRun> figures_;  // one per story, in stories() order
};

}  // namespace attnlab::ui
