# Header-only dependencies as imported INTERFACE targets. Under emcmake, find_package cannot see
# host packages (docs/toolchain.md, "Pitfall 4"), so the Debian install paths are named directly.
find_path(ATTNLAB_EIGEN_DIR Eigen/Core PATHS /usr/include/eigen3 NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
if(NOT ATTNLAB_EIGEN_DIR)
  message(FATAL_ERROR "Eigen 3 not found in /usr/include/eigen3: run scripts/setup.sh (apt package libeigen3-dev)")
endif()
add_library(attnlab::eigen INTERFACE IMPORTED)
target_include_directories(attnlab::eigen SYSTEM INTERFACE "${ATTNLAB_EIGEN_DIR}")

# nlohmann/json (apt package nlohmann-json3-dev) reads user-supplied problem files. Copied to a
# private include directory for the same reason as Catch2 below.
find_path(ATTNLAB_JSON_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
if(NOT ATTNLAB_JSON_DIR)
  message(FATAL_ERROR "nlohmann/json not found (/usr/include/nlohmann/json.hpp): run scripts/setup.sh (apt package nlohmann-json3-dev)")
endif()
file(COPY "${ATTNLAB_JSON_DIR}/nlohmann" DESTINATION "${CMAKE_BINARY_DIR}/json-include")
add_library(attnlab::json INTERFACE IMPORTED)
target_include_directories(attnlab::json SYSTEM INTERFACE "${CMAKE_BINARY_DIR}/json-include")

if(ATTNLAB_TESTS)
  find_path(ATTNLAB_CATCH2_DIR catch2/catch.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
  if(NOT ATTNLAB_CATCH2_DIR)
    message(FATAL_ERROR "Catch2 v2 not found (/usr/include/catch2/catch.hpp): run scripts/setup.sh (apt package catch2)")
  endif()
  # A private copy of the single header's directory, so that -I does not expose all of /usr/include.
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/catch2-include/catch2")
  configure_file("${ATTNLAB_CATCH2_DIR}/catch2/catch.hpp" "${CMAKE_BINARY_DIR}/catch2-include/catch2/catch.hpp" COPYONLY)
  add_library(attnlab::catch2 INTERFACE IMPORTED)
  target_include_directories(attnlab::catch2 SYSTEM INTERFACE "${CMAKE_BINARY_DIR}/catch2-include")
  set(ATTNLAB_CATCH_CMAKE "/usr/lib/cmake/Catch2/Catch.cmake")
  if(NOT EXISTS "${ATTNLAB_CATCH_CMAKE}")
    file(GLOB ATTNLAB_CATCH_CMAKE /usr/lib/*/cmake/Catch2/Catch.cmake)
  endif()
endif()
