# Precompiled headers for the Eigen-heavy targets (docs/toolchain.md "A build that stays fast"):
# Eigen/Dense and the standard headers most of our files include, parsed once per target instead of
# once per translation unit. ATTNLAB_PCH=OFF turns it off.
option(ATTNLAB_PCH "precompile Eigen/Dense and common standard headers for the Eigen-heavy targets" OFF)
function(attnlab_pch target)
  if(ATTNLAB_PCH)
    target_precompile_headers(${target} PRIVATE <Eigen/Dense> <vector> <string> <algorithm> <cmath>
      <memory> <functional> <map> <optional>)
  endif()
endfunction()
