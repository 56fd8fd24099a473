# The web app: index.html + attnlab.js + attnlab.wasm, from Dear ImGui 1.86 and SDL2 2.26.5 that
# scripts/setup.sh unpacked (and built, for SDL2) into the cache.
set(ATTNLAB_IMGUI_DIR "${ATTNLAB_CACHE}/src/imgui-1.86" CACHE PATH "Dear ImGui 1.86 sources")
set(ATTNLAB_SDL2_DIR "${ATTNLAB_CACHE}/sdl2-wasm-2.26.5" CACHE PATH "SDL2 2.26.5 built for wasm")
set(ATTNLAB_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" CACHE FILEPATH "UI font (fonts-dejavu-core)")
find_program(ATTNLAB_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
foreach(required "${ATTNLAB_IMGUI_DIR}/imgui.cpp" "${ATTNLAB_SDL2_DIR}/lib/libSDL2.a" "${ATTNLAB_FONT}")
  if(NOT EXISTS "${required}")
    message(FATAL_ERROR "${required} is missing: run scripts/setup.sh (or set -DATTNLAB_WEB_APP=OFF)")
  endif()
endforeach()

add_library(attnlab_imgui STATIC
  "${ATTNLAB_IMGUI_DIR}/imgui.cpp"
  "${ATTNLAB_IMGUI_DIR}/imgui_draw.cpp"
  "${ATTNLAB_IMGUI_DIR}/imgui_tables.cpp"
  "${ATTNLAB_IMGUI_DIR}/imgui_widgets.cpp"
  "${ATTNLAB_IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp"
  "${ATTNLAB_IMGUI_DIR}/backends/imgui_impl_sdl.cpp"
  "${ATTNLAB_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp")
target_include_directories(attnlab_imgui SYSTEM PUBLIC "${ATTNLAB_IMGUI_DIR}" "${ATTNLAB_IMGUI_DIR}/backends"
  "${ATTNLAB_IMGUI_DIR}/misc/cpp"
  "${ATTNLAB_SDL2_DIR}/include/SDL2")
# ImGui 1.86 would pick WebGL1 under emscripten (docs/toolchain.md, "Pitfall 5").
target_compile_definitions(attnlab_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_link_libraries(attnlab_imgui PUBLIC "${ATTNLAB_SDL2_DIR}/lib/libSDL2.a")

# The UI font, cut down to the glyphs the page draws (ASCII, the no-break space, degree, plus-minus,
# squares, micro, middle dot and times; the ellipsis ImGui clips with: the page's own texts are ASCII
# (no dash or quote beyond it) and its fields take numbers, so no other Latin-1, Greek, arrows or
# <=, >=; a missing glyph shows as '?'), without the hinting instructions and layout tables that ImGui's rasteriser
# (stb_truetype) never reads. Needs python3-fonttools (scripts/setup.sh).
set(ATTNLAB_UI_FONT "${CMAKE_BINARY_DIR}/ui-font.ttf")
add_custom_command(OUTPUT "${ATTNLAB_UI_FONT}"
  COMMAND "${ATTNLAB_PYTHON3}" -m fontTools.subset "${ATTNLAB_FONT}" --output-file=${ATTNLAB_UI_FONT}
          --no-hinting --layout-features= "--unicodes=U+0020-007E,U+00A0,U+00B0-00B3,U+00B5,U+00B7,U+00D7,U+2026"
  DEPENDS "${ATTNLAB_FONT}"
  COMMENT "Subsetting the UI font"
  VERBATIM)

# The font and the shaders compiled into the UI (src/ui/embedded_assets.hpp): no file system in the page.
set(ATTNLAB_ASSETS_CPP "${CMAKE_BINARY_DIR}/generated/embedded_assets.cpp")
add_custom_command(OUTPUT "${ATTNLAB_ASSETS_CPP}"
  COMMAND "${CMAKE_COMMAND}" -DFONT=${ATTNLAB_UI_FONT} -DVERT=${CMAKE_SOURCE_DIR}/shaders/heatmap.vert
          -DFRAG=${CMAKE_SOURCE_DIR}/shaders/heatmap.frag -DOUT=${ATTNLAB_ASSETS_CPP}
          -P "${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake"
  DEPENDS "${ATTNLAB_UI_FONT}" "${CMAKE_SOURCE_DIR}/shaders/heatmap.vert" "${CMAKE_SOURCE_DIR}/shaders/heatmap.frag"
          "${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake"
  COMMENT "Compiling the UI font and the shaders into the page"
  VERBATIM)

# The ImGui front end (src/ui), a face: it draws the page's logic (src/page) and sees lab and
# experiments (the panels read results and schemas) and ImGui, never the browser glue.
add_library(attnlab_ui STATIC
  src/ui/app.cpp
  src/ui/app_frame.cpp
  src/ui/app_results.cpp
  src/ui/app_twin.cpp
  src/ui/app_exports.cpp
  src/ui/app_toolbar.cpp
  src/ui/param_controls.cpp
  src/ui/plot_widget.cpp
  src/ui/series_marks.cpp
  src/ui/heatmap_widget.cpp
  src/ui/inspector_view.cpp
  src/ui/reproduction_view.cpp
  src/ui/embed_dialog.cpp
  src/ui/start_page.cpp
  src/ui/story_panel.cpp
  src/ui/keyboard_focus.cpp
  src/ui/wrapped_text.cpp
  src/ui/text_contrast.cpp
  src/ui/theme.cpp
  "${ATTNLAB_ASSETS_CPP}")
attnlab_layer_root(attnlab_ui ui "${CMAKE_SOURCE_DIR}/src/ui" PUBLIC)
target_link_libraries(attnlab_ui PUBLIC attnlab_page attnlab_imgui PRIVATE attnlab_warnings attnlab::json)

# The page: browser glue (src/web) around the UI, plus the JS API.
add_executable(attnlab_app
  src/web/main.cpp
  src/web/app_bindings.cpp
  src/web/browser.cpp
  src/web/worker_pool.cpp
  src/web/sdl_no_blit.cpp
  $<TARGET_OBJECTS:attnlab_js_api>)
attnlab_layer_root(attnlab_app web "${CMAKE_SOURCE_DIR}/src/web" PRIVATE)
target_link_libraries(attnlab_app PRIVATE attnlab_ui attnlab_experiments attnlab_warnings attnlab::json)
set_target_properties(attnlab_app PROPERTIES OUTPUT_NAME attnlab RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/web")
# attnlab.js.symbols: wasm function index -> name, for the page's profiles (bench/page_profile.mjs;
# scripts/build-site.sh leaves it out of the site).
target_link_options(attnlab_app PRIVATE --emit-symbol-map --bind -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web -sMODULARIZE=1 -sEXPORT_NAME=attnlabModule -sFILESYSTEM=0)
# index.html from the shell: emcc writes attnlab.js/.wasm; the page is generated beside them.
add_custom_command(OUTPUT "${CMAKE_BINARY_DIR}/web/index.html"
  COMMAND "${CMAKE_COMMAND}" -DSHELL=${CMAKE_SOURCE_DIR}/web/shell.html -DOUT=${CMAKE_BINARY_DIR}/web/index.html
          -P "${CMAKE_SOURCE_DIR}/cmake/make_index.cmake"
  DEPENDS "${CMAKE_SOURCE_DIR}/web/shell.html" "${CMAKE_SOURCE_DIR}/cmake/make_index.cmake"
  VERBATIM)
add_custom_target(attnlab_index_html DEPENDS "${CMAKE_BINARY_DIR}/web/index.html")
add_dependencies(attnlab_app attnlab_index_html)

# The headless JS API (web/api) and the example pages (web/examples), served beside the app:
# /attnlab-api.mjs, /attnlab-api.d.ts, /examples/course.html. Copied again whenever one changes.
file(GLOB ATTNLAB_WEB_EXAMPLES CONFIGURE_DEPENDS RELATIVE "${CMAKE_SOURCE_DIR}/web" "${CMAKE_SOURCE_DIR}/web/examples/*")
set(ATTNLAB_WEB_EXTRAS)
foreach(file twin.js twin_morph.js api/attnlab-api.mjs api/attnlab-api.d.ts workers/unit_worker.js workers/unit_pool.js ${ATTNLAB_WEB_EXAMPLES})
  string(REGEX REPLACE "^(api|workers)/" "" served "${file}")  # the API module and workers sit beside attnlab.js
  add_custom_command(OUTPUT "${CMAKE_BINARY_DIR}/web/${served}"
    COMMAND "${CMAKE_COMMAND}" -E copy "${CMAKE_SOURCE_DIR}/web/${file}" "${CMAKE_BINARY_DIR}/web/${served}"
    DEPENDS "${CMAKE_SOURCE_DIR}/web/${file}"
    VERBATIM)
  list(APPEND ATTNLAB_WEB_EXTRAS "${CMAKE_BINARY_DIR}/web/${served}")
endforeach()
add_custom_target(attnlab_web_api DEPENDS ${ATTNLAB_WEB_EXTRAS})
add_dependencies(attnlab_app attnlab_web_api attnlab_worker)
