#include "lab/embed_snippet.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "lab/json_text.hpp"

namespace attnlab {

namespace {
std::string html_attribute(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else if (c == '<') out += "&lt;";
    else out += c;
  }
  return out;
}
}  // namespace

std::string iframe_snippet(const std::string& url, const std::string& title, int width, int height) {
  for (const auto& [name, value] : {std::pair<const char*, int>{"width", width}, {"height", height}})
    if (value < 240 || value > 4000)
      throw std::invalid_argument(std::string("embed ") + name + " " + std::to_string(value) +
                                  " is not allowed; allowed: 240 to 4000 (CSS pixels)");
  const std::string w = std::to_string(width), h = std::to_string(height);
  const std::string least = std::to_string(std::min(height, kEmbedMinHeight));
  return "<iframe src=\"" + html_attribute(url) + "\" width=\"100%\" height=\"" + h +
         "\" style=\"border:0;width:100%;max-width:" + w + "px;height:auto;aspect-ratio:" + w + "/" + h +
         ";min-height:min(" + least + "px,90vh);max-height:90vh\" title=\"" + html_attribute(title) +
         "\" loading=\"lazy\" allow=\"clipboard-write\"></iframe>";
}

std::string oembed_json(const std::string& page_url, const std::string& hash, const std::string& title, int width,
                        int height) {
  const std::string url = page_url + (hash.empty() ? "" : "#" + hash);
  const JsonValue j = {{"version", "1.0"},
                       {"type", "rich"},
                       {"title", title},
                       {"provider_name", "Attention Lab"},
                       {"provider_url", page_url},
                       {"html", iframe_snippet(url, "Attention Lab: " + title, width, height)},
                       {"width", width},
                       {"height", height}};
  return json_text(j);
}

}  // namespace attnlab
