// The start page, shown when a link names no experiment and no story: every paper with a story as a card
// (title, authors, the question the paper answers, a small picture of what goes into its first
// experiment: never a result, which a step asks the student to predict), each opening its story,
// and the entry to the free lab. The pictures are computed on the main thread, one a frame.
#pragma once
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "ui/heatmap_widget.hpp"

namespace attnlab::ui {

class StartPage {
 public:
  struct Choice {
    bool free_lab = false;
    std::string story;  // the story to open, or ""
  };
  // Computes the next card's picture, if one is missing.
  void compute();
  // Draws the page filling the window (its maps through `maps`); returns what the visitor opened.
  Choice draw(HeatmapWidget& maps);
  unsigned version() const;  // changes whenever a picture is added
  // {"cards": [{"story", "fraction"}]} for tests: fraction 1 once the card's picture is drawn.
  std::string json() const;

 private:
  std::vector<Results> pictures_;  // the stories' in stories() order, as far as computed
  std::vector<std::string> errors_;  // a picture that could not be made says why (else "")
};

}  // namespace attnlab::ui
