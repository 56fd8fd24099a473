// What a paper is: the one declaration every face reads (docs/design.md "How to add a paper").
// The lab knows no particular paper: src/experiments/papers.cpp declares them, in one table.
#pragma once
#include <string>
#include <vector>

namespace attnlab {

struct Paper {
  std::string id;                        // "separation": also the folder src/experiments/<id>/
  std::string title;                     // "Why Softmax Attention Outperforms Linear Attention"
  std::string authors;                   // "Deng, Song, Yuan, Zhou"
  std::string arxiv;                     // "2310.11685"
  std::string docs_page;                 // "docs/separation.md"
  std::vector<std::string> experiments;  // the experiments' ids, in the registry's order
  std::string story;                     // the guided story's id ("" when there is none)
  std::string reproduction;              // the reproduction's name ("" when there is none)

  // "Deng, Song, Yuan, Zhou. Why Softmax Attention Outperforms Linear Attention (arXiv 2310.11685)",
  // followed by ", " and `where` (a section or figure of the paper) when it is not empty.
  std::string citation(const std::string& where = "") const {
    return authors + ". " + title + " (arXiv " + arxiv + ")" + (where.empty() ? "" : ", " + where);
  }
};

}  // namespace attnlab
