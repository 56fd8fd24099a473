// The HTML a course page pastes to embed the lab: the <iframe> snippet of the Embed dialog and the
// oEmbed answer (https://oembed.com, type "rich") that the site's static files carry, so that
// course sites which turn links into embeds (WordPress, Moodle filters) show the lab. This is the
// snippet's one home: the dialog, scripts/oembed.mjs and README's example all come from here.
#pragma once
#include <string>

namespace attnlab {

// The size the Embed dialog and the oEmbed files offer (CSS pixels): the widest the frame gets, and
// its height at that width.
constexpr int kEmbedWidth = 960, kEmbedHeight = 640;
// The least height the snippet keeps however narrow the column (a phone): the story's question and
// its controls fit above the results (docs/design.md, "An embed on a phone").
constexpr int kEmbedMinHeight = 640;

// The <iframe> for `url` (`width` and `height` in CSS pixels, each 240 to 4000, else
// std::invalid_argument naming the parameter). It fits any column and any screen:
//  - as pasted, its style makes it the column's width up to `width`, `height` tall at that width
//    (aspect-ratio), at least kEmbedMinHeight tall but never taller than 90% of the screen;
//  - with style stripped (some course sites), width="100%" and height="`height`" still fit the
//    column;
//  - with width, height and style stripped (the browser's 300 x 150), the page itself shows a
//    compact view: the question and an "Open full size" button (ui/app_frame.cpp).
// It needs no allow= or sandbox= to compute (allow="clipboard-write" only lets Share copy).
std::string iframe_snippet(const std::string& url, const std::string& title, int width, int height);

// The oEmbed JSON for the lab at `page_url` opened at `hash`: version 1.0, type rich, the title,
// the provider (the lab at `page_url`), the iframe snippet as html, its width and height.
std::string oembed_json(const std::string& page_url, const std::string& hash, const std::string& title, int width,
                        int height);

}  // namespace attnlab
