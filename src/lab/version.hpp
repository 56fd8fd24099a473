#pragma once
// Set by CMake from project(VERSION); written into every export.
#ifndef ATTNLAB_VERSION
#define ATTNLAB_VERSION "0.0.0-dev"
#endif
namespace attnlab {
constexpr const char* kVersion = ATTNLAB_VERSION;
}
