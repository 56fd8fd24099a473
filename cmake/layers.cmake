# The layering, enforced by include paths: sources write "core/rng.hpp", "lab/schema.hpp", ...,
# and a library can only reach the folders of its own layer and of the layers it links.
#
# Each layer gets an include root of its own in the build tree that holds one entry, a symbolic
# link to its folder (build/layers/lab/lab -> src/lab). A library puts its root on its PUBLIC
# include path, so linking a lower layer brings that layer's root and nothing else: lab sees
# layers/core and layers/lab, so `#include "experiments/registry.hpp"` in src/lab does not compile.
# The repository root and src/ are never include directories.

# attnlab_layer_root(TARGET NAME FOLDER PUBLIC|PRIVATE)
function(attnlab_layer_root target name folder scope)
  set(root "${CMAKE_BINARY_DIR}/layers/${name}")
  if(NOT IS_SYMLINK "${root}/${name}")
    file(MAKE_DIRECTORY "${root}")
    file(CREATE_LINK "${folder}" "${root}/${name}" SYMBOLIC)
  endif()
  target_include_directories(${target} ${scope} "${root}")
endfunction()

# attnlab_layer(TARGET NAME FOLDER SOURCES src... [DEPENDS lib...] [PRIVATE_DEPENDS lib...])
# A static library for one layer, with the shared options and the warning set.
function(attnlab_layer target name folder)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "SOURCES;DEPENDS;PRIVATE_DEPENDS")
  add_library(${target} STATIC ${arg_SOURCES})
  attnlab_layer_root(${target} ${name} "${folder}" PUBLIC)
  target_link_libraries(${target} PUBLIC attnlab_options ${arg_DEPENDS}
    PRIVATE attnlab_warnings ${arg_PRIVATE_DEPENDS})
endfunction()
