# Writes index.html from web/shell.html (the shell loads attnlab.js and attnlab.wasm itself).
configure_file("${SHELL}" "${OUT}" COPYONLY)
