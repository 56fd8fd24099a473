/* Empty stand-in: emscripten 3.1.6 has no MMX header, and Eigen's SSE path includes it
   through <xmmintrin.h> chains. Nothing of MMX is used (docs/toolchain.md, "Pitfall 3"). */
#pragma once
