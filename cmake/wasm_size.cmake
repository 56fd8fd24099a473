# The page's first load (docs/toolchain.md, "The page's size"): in the wasm build, the code that
# builds tables, schemas, stories, JSON, SVG and the UI is compiled for size (-Oz), while the
# numerical kernels keep -O3. Neither level changes a floating-point result (no fast-math, no FMA
# in wasm): the node module's `cli_equal` test checks every preset against the CLI bit for bit.
# Included by CMakeLists.txt after the libraries are defined (source properties are per directory).
if(NOT EMSCRIPTEN)
  return()
endif()
option(ATTNLAB_WASM_SIZE "compile the wasm build's non-kernel code with -Oz" ON)
if(NOT ATTNLAB_WASM_SIZE)
  return()
endif()
set(ATTNLAB_SIZE_FLAG -Oz)

# Kernels (src/core and the experiments' numerical files, their work units included) stay -O3;
# everything below is not hot: one call per run, per unit's result, per figure or per frame (an
# experiment's *_experiment.cpp declares it and assembles its results).
file(GLOB _size_sources RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_schema.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_story.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_glossary.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_results.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_table.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_inputs.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_figures.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_codec.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*_experiment.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/*inspector.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/regression_contour.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/attention_presets.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/experiments/*/problem_file.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/lab/*.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/page/*.cpp"
  "${CMAKE_CURRENT_SOURCE_DIR}/src/web/*.cpp")
set_source_files_properties(${_size_sources} PROPERTIES COMPILE_OPTIONS ${ATTNLAB_SIZE_FLAG})
if(TARGET attnlab_ui)
  target_compile_options(attnlab_ui PRIVATE ${ATTNLAB_SIZE_FLAG})
  target_compile_options(attnlab_imgui PRIVATE ${ATTNLAB_SIZE_FLAG})
endif()
# The page's module is linked for size too (binaryen's -Oz: less inlining, more folding); the
# workers' module, where runs compute, and the node module keep -O3.
if(TARGET attnlab_app)
  # emmalloc: a smaller allocator than dlmalloc, for the page's own allocations only.
  target_link_options(attnlab_app PRIVATE -Oz -sMALLOC=emmalloc -sTEXTDECODER=2
    "-sBINARYEN_EXTRA_PASSES=--converge")
endif()
