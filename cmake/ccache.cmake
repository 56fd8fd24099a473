# ccache for every build of this tree (docs/toolchain.md "A build that stays fast"), when the machine has
# it (scripts/setup.sh installs Debian's ccache). Its store lives in the attnlab cache outside the work
# tree, and paths are taken relative to this source tree (base_dir), so a fresh clone elsewhere (CI)
# hits what an earlier clone compiled. ATTNLAB_CCACHE=OFF, or an explicit CMAKE_CXX_COMPILER_LAUNCHER,
# turns it off or replaces it.
option(ATTNLAB_CCACHE "compile through ccache when it is installed" ON)
if(ATTNLAB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(ATTNLAB_CCACHE_PROGRAM ccache)
  if(ATTNLAB_CCACHE_PROGRAM)
    # hash_dir off: the -g builds (sanitizers) would otherwise hash the build folder's absolute path.
    set(CMAKE_CXX_COMPILER_LAUNCHER "${CMAKE_COMMAND}" -E env
      "CCACHE_DIR=${ATTNLAB_CACHE}/ccache" "CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}" CCACHE_NOHASHDIR=1
      CCACHE_MAXSIZE=4G "${ATTNLAB_CCACHE_PROGRAM}")
  endif()
endif()
