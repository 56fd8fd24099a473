# The warning set for the project's own code, the same with g++ and with emcc (clang), and an
# error in both (ATTNLAB_WERROR, on by default). Third-party headers are SYSTEM includes.
option(ATTNLAB_WERROR "treat warnings as errors" ON)
add_library(attnlab_warnings INTERFACE)
target_compile_options(attnlab_warnings INTERFACE -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion
  -Wno-missing-field-initializers)
if(ATTNLAB_WERROR)
  target_compile_options(attnlab_warnings INTERFACE -Werror)
endif()
