# Included by ctest (TEST_INCLUDE_FILES, tests/CMakeLists.txt) after the tests are known: gives each
# test named in ATTNLAB_COST_FILE its measured seconds as COST, so that `ctest -j` starts the long
# ones first on a fresh machine too (docs/toolchain.md, "The test steps apart from compiling").
# A line: "SECONDS TEST NAME"; a name no test has any more is ignored by set_tests_properties.
file(STRINGS "${ATTNLAB_COST_FILE}" _attnlab_cost_lines)
foreach(_line IN LISTS _attnlab_cost_lines)
  if(_line MATCHES "^([0-9.]+) (.+)$")
    set_tests_properties("${CMAKE_MATCH_2}" PROPERTIES COST "${CMAKE_MATCH_1}")
  endif()
endforeach()
