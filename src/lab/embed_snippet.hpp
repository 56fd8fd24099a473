// The HTML a course page pastes to embed the lab: the <iframe> snippet of the Embed dialog and the
// oEmbed answer (https://oembed.com, type "rich") that the site's static files carry, so that
// course sites which turn links into embeds (WordPress, Moodle filters) show the lab.
#pragma once
#include <string>

namespace attnlab {

// The <iframe> for `url` (width and height in CSS pixels). It sizes itself when a course site
// strips width and height (style: width 100% up to `width`, aspect-ratio), and needs no allow= or
// sandbox= to compute (allow="clipboard-write" only lets Share copy).
std::string iframe_snippet(const std::string& url, const std::string& title, int width, int height);

// The oEmbed JSON for the lab at `page_url` opened at `hash`: version 1.0, type rich, the title,
// the provider (the lab at `page_url`), the iframe snippet as html, its width and height.
std::string oembed_json(const std::string& page_url, const std::string& hash, const std::string& title, int width,
                        int height);

}  // namespace attnlab
