#!/usr/bin/env bash
# What the image stage of the tests needs (mvn -Pimages): mmdebstrap for the base (installed
# by images/base-image.sh itself), podman and runc to run the server's image (ServerImageIT;
# podman's default crun cannot set rlimits on these machines, runc runs there). Sourced by
# scripts/test/all.sh.
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
if (( ${#missing[@]} )); then
  echo "image-tools: installing ${missing[*]} (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
