# Writes OUT, a header defining TUNEFARM_GIT_COMMIT (the commit of SOURCE_DIR, "+changes" when the
# tree differs from it), and rewrites it only when that changed: `tunefarm --version` names the
# commit it was built from, and a build with nothing new recompiles nothing.
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" diff --quiet HEAD -- RESULT_VARIABLE dirty
    ERROR_QUIET)
  if(NOT dirty EQUAL 0)
    string(APPEND commit "+changes")
  endif()
endif()
set(text "#define TUNEFARM_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
