#!/bin/sh
# Checks that package.json has version $1.
grep -q "\"version\": \"$1\"" package.json
