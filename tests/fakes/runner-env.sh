#!/bin/sh
# Prints the working directory and the environment it was given.
printf 'cwd=%s\n' "$(pwd -P)"
env
