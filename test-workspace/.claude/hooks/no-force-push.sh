#!/bin/sh
# Refuses `git push --force` (exit status 2 blocks the Bash call).
if grep -q 'git push.*--force' ; then
  echo "force-push is not allowed here" >&2
  exit 2
fi
