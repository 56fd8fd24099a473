# Writes index.html from web/shell.html, loading attnlab.js (the module emcc produced).
file(READ "${SHELL}" html)
string(REPLACE "{{{ SCRIPT }}}" "<script async src=\"attnlab.js\"></script>" html "${html}")
file(WRITE "${OUT}" "${html}")
