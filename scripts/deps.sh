#!/usr/bin/env bash
# Installs every Debian package (and the npm glTF validator) critter needs to build, test and
# benchmark. Idempotent: quiet and fast when everything is already present. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format
  libglm-dev libsimdjson-dev nlohmann-json3-dev libcli11-dev libstb-dev
  libassimp-dev assimp-utils libtinygltf-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  minetest-data
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
