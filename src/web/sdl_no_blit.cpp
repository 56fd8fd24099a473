// The page draws with WebGL only, so SDL's software surface blitters (about 120 KB of wasm, some
// 10% of the page's first load) and its run-length-encoded surfaces (about 20 KB more) are never
// used. Defining SDL's internal SDL_CalculateBlit here keeps SDL_blit.o, and every blitter it
// reaches, out of the link (SDL_blit.o defines nothing else); SDL_RLESurface and SDL_UnRLESurface,
// all that SDL_RLEaccel.o defines, keep it out likewise. A surface blit, were one ever asked for,
// fails with an SDL error instead of drawing; a surface is never run-length encoded.
#include <SDL.h>

extern "C" int SDL_CalculateBlit(SDL_Surface* /*surface*/) {
  return SDL_SetError("Attention Lab's page has no software blitter (it draws with WebGL)");
}

extern "C" int SDL_RLESurface(SDL_Surface* /*surface*/) {
  return SDL_SetError("Attention Lab's page has no run-length-encoded surfaces (it draws with WebGL)");
}

extern "C" void SDL_UnRLESurface(SDL_Surface* /*surface*/, int /*recode*/) {}
