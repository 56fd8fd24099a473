// The page draws with WebGL only, so SDL's software surface blitters (about 120 KB of wasm, some
// 10% of the page's first load) are never used. Defining SDL's internal SDL_CalculateBlit here
// keeps SDL_blit.o, and every blitter it reaches, out of the link (SDL_blit.o defines nothing
// else); a surface blit, were one ever asked for, fails with an SDL error instead of drawing.
#include <SDL.h>

extern "C" int SDL_CalculateBlit(SDL_Surface* /*surface*/) {
  return SDL_SetError("Attention Lab's page has no software blitter (it draws with WebGL)");
}
